import type { Executor } from '../../db/database';
import type { Mode } from '../scope';
import { getCheckoutSettings } from './checkout-settings';
import type { Scope } from '../scope';

/** How a borrower reaches the lender from a page that cannot go on (an expired or withdrawn link). */
export interface LenderContact {
  name: string;
  email: string | null;
  phone: string | null;
  url: string | null;
}

/**
 * The lender's contact for its borrowers, per mode: the checkout settings' display name (else the
 * organisation's name) and the support e-mail, phone and URL where the organisation set them.
 */
export async function lenderContact(db: Executor, options: Scope): Promise<LenderContact> {
  const organisation = await db.selectFrom('organisations').select('name').where('id', '=', options.organisationId).executeTakeFirstOrThrow();
  const settings = await getCheckoutSettings(db, options);
  return { name: settings.displayName ?? organisation.name, email: settings.supportEmail, phone: settings.supportPhone, url: settings.supportUrl };
}
