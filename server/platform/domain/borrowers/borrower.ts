import type { Executor } from '../../db/database';
import type { BorrowersTable, Mode } from '../../db/schema';
import { findOwned } from '../find-owned';
import type { Scope } from '../scope';

/** The public Borrower resource. The BVN hash and NIN stay inside the service. */
export interface Borrower {
  id: string;
  organisationId: string;
  clientReference: string | null;
  firstName: string;
  lastName: string;
  phone: string;
  email: string | null;
  identityStatus: 'unclaimed' | 'linked';
  linkedAt: string | null;
  userId: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toBorrower(row: BorrowersTable): Borrower {
  return {
    id: row.id,
    organisationId: row.organisationId,
    clientReference: row.clientReference,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    email: row.email,
    identityStatus: row.identityStatus as Borrower['identityStatus'],
    linkedAt: row.linkedAt,
    userId: row.userId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function getBorrower(db: Executor, scope: Scope, id: string): Promise<Borrower> {
  const row = await findOwned(db, 'borrowers', scope, id, 'borrower');
  return toBorrower(row);
}
