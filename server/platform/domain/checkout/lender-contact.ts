import type { Executor } from '../../db/database';
import type { Mode } from '../../db/schema';

/** How a borrower reaches the lender from a page that cannot go on (an expired or withdrawn link). */
export interface LenderContact {
  name: string;
  email: string | null;
  phone: string | null;
  url: string | null;
}

/**
 * The lender's contact for its borrowers, per mode. The organisation's name for now; the support
 * e-mail, phone and URL come from the checkout settings' branding where the organisation set them.
 */
export async function lenderContact(db: Executor, options: { organisationId: string; mode: Mode }): Promise<LenderContact> {
  const organisation = await db.selectFrom('organisations').select('name').where('id', '=', options.organisationId).executeTakeFirstOrThrow();
  return { name: organisation.name, email: null, phone: null, url: null };
}
