import type { Executor } from '../../db/database';
import type { BorrowersTable, Mode } from '../../db/schema';
import { findOwned } from '../find-owned';
import { newId } from '../ids';
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

/**
 * A new borrower row: unclaimed (no platform user yet), with only the keyed hashes of the BVN and NIN
 * when known. Every way a borrower comes to exist (a pushed decision, an operator loan, a patient
 * financing application) builds its row here.
 */
export function newBorrowerRow(
  scope: Scope,
  details: { firstName: string; lastName: string; phone: string; email?: string | null },
  options: { clientReference?: string | null; bvnHash?: string | null; ninHash?: string | null; now: Date },
): BorrowersTable {
  const at = options.now.toISOString();
  return {
    id: newId(),
    organisationId: scope.organisationId,
    mode: scope.mode,
    clientReference: options.clientReference ?? null,
    firstName: details.firstName,
    lastName: details.lastName,
    phone: details.phone,
    email: details.email ?? null,
    bvnHash: options.bvnHash ?? null,
    ninHash: options.ninHash ?? null,
    legacyNin: null,
    identityStatus: 'unclaimed',
    linkedAt: null,
    userId: null,
    preferredLocale: null,
    createdAt: at,
    updatedAt: at,
  };
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
