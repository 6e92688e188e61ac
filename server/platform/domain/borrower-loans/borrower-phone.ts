import type { Executor } from '../../db/database';
import type { Scope } from '../scope';

/** The loan states a borrower sees after checkout: lent, whatever became of it since. */
export const LENT_STATES = ['disbursed', 'active', 'completed', 'defaulted'];

/** How a (normalised, +234…) phone may be written on a borrower's record, where the push's own spelling is kept. */
export function phoneSpellings(phone: string): string[] {
  if (!phone.startsWith('+234')) return [phone];
  const national = phone.slice(4);
  return [phone, `234${national}`, `0${national}`, national];
}

/** The borrowers of one lender and mode whose phone on record is this phone. */
export async function borrowerIdsForPhone(db: Executor, scope: Scope, phone: string): Promise<string[]> {
  const rows = await db
    .selectFrom('borrowers')
    .select('id')
    .where('phone', 'in', phoneSpellings(phone))
    .where('mode', '=', scope.mode)
    .where('organisationId', '=', scope.organisationId)
    .execute();
  return rows.map((r) => r.id);
}
