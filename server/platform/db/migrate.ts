import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseHandle, Dialect, Db } from './database';
import * as foundation from './migrations/0001-foundation';
import * as preapprovals from './migrations/0002-preapprovals';
import * as loans from './migrations/0003-loans';
import * as repayments from './migrations/0004-repayments';
import * as arrears from './migrations/0005-arrears';
import * as sandboxRails from './migrations/0006-sandbox-rails';
import * as settlements from './migrations/0007-settlements';
import * as mandates from './migrations/0008-mandates';
import * as mandateCharges from './migrations/0009-mandate-charges';
import * as webhookEndpoints from './migrations/0010-webhook-endpoints';
import * as webhookDeliveries from './migrations/0011-webhook-deliveries';
import * as walletsPayouts from './migrations/0012-wallets-payouts';
import * as checkout from './migrations/0014-checkout';
import * as settlementCatalog from './migrations/0015-settlement-catalog';
import * as checkoutEmbedding from './migrations/0016-checkout-embedding';
import * as passkeys from './migrations/0017-passkeys';
import * as patientFinancing from './migrations/0018-patient-financing';
import * as appointments from './migrations/0020-appointments';
import * as preapprovalExpiryIndex from './migrations/0021-preapproval-expiry-index';
import * as checkoutRenewals from './migrations/0022-checkout-renewals';
import * as ownershipChecks from './migrations/0023-ownership-checks';
import * as checkoutBranding from './migrations/0025-checkout-branding';
import * as ninHash from './migrations/0027-nin-hash';
import * as credentialEpoch from './migrations/0028-credential-epoch';
import * as dashboardAccounts from './migrations/0029-dashboard-accounts';
import * as dashboardKeysTeam from './migrations/0030-dashboard-keys-team';
import * as dashboardPasskeys from './migrations/0031-dashboard-passkeys';
import * as poolFundingNotices from './migrations/0032-pool-funding-notices';
import * as dashboardLoanIndexes from './migrations/0033-dashboard-loan-indexes';
import * as webhookAttempts from './migrations/0034-webhook-attempts';
import * as dashboardClinicLists from './migrations/0035-dashboard-clinic-lists';
import * as meetingPresence from './migrations/0036-meeting-presence';
import * as languages from './migrations/0037-languages';
import * as financingBooks from './migrations/0038-financing-books';
import * as guardedWrites from './migrations/0039-guarded-writes';
import * as statisticsFreeLists from './migrations/0040-statistics-free-lists';
import * as accountGates from './migrations/0041-account-gates';
import * as keyScopes from './migrations/0042-key-scopes';
import * as pushContact from './migrations/0044-push-contact';
import * as loanReviews from './migrations/0048-loan-reviews';
import * as reviewReasons from './migrations/0049-review-reasons';
import * as borrowerSessions from './migrations/0055-borrower-sessions';
import * as earlySettlement from './migrations/0056-early-settlement';
import * as liveRefusal from './migrations/0057-live-refusal';
import * as mandateReplacements from './migrations/0059-mandate-replacements';
import * as staffAccounts from './migrations/0050-staff-accounts';
import * as opsProposals from './migrations/0051-ops-proposals';
import * as mandateExpiry from './migrations/0053-mandate-expiry';
import * as insurancePolicyRecords from './migrations/0058-insurance-policy-records';
import * as borrowerReminders from './migrations/0060-borrower-reminders';
import * as repaymentInitiator from './migrations/0061-repayment-initiator';

/** Column types that differ between the two databases; migrations take them instead of naming types. */
export interface ColumnTypes {
  bool: 'boolean' | 'integer';
  bigint: 'bigint' | 'integer';
  timestamp: 'timestamptz' | 'text';
  json: 'jsonb' | 'text';
  blob: 'bytea' | 'blob';
}

type MigrationModule = { up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> };

/** Applied in key order; never edit one that has shipped, add the next. */
const migrations: Record<string, MigrationModule> = {
  '0001-foundation': foundation,
  '0002-preapprovals': preapprovals,
  '0003-loans': loans,
  '0004-repayments': repayments,
  '0005-arrears': arrears,
  '0006-sandbox-rails': sandboxRails,
  '0007-settlements': settlements,
  '0008-mandates': mandates,
  '0009-mandate-charges': mandateCharges,
  '0010-webhook-endpoints': webhookEndpoints,
  '0011-webhook-deliveries': webhookDeliveries,
  '0012-wallets-payouts': walletsPayouts,
  '0014-checkout': checkout,
  '0015-settlement-catalog': settlementCatalog,
  '0016-checkout-embedding': checkoutEmbedding,
  '0017-passkeys': passkeys,
  '0018-patient-financing': patientFinancing,
  '0020-appointments': appointments,
  '0021-preapproval-expiry-index': preapprovalExpiryIndex,
  '0022-checkout-renewals': checkoutRenewals,
  '0023-ownership-checks': ownershipChecks,
  '0025-checkout-branding': checkoutBranding,
  '0027-nin-hash': ninHash,
  '0028-credential-epoch': credentialEpoch,
  '0029-dashboard-accounts': dashboardAccounts,
  '0030-dashboard-keys-team': dashboardKeysTeam,
  '0031-dashboard-passkeys': dashboardPasskeys,
  '0032-pool-funding-notices': poolFundingNotices,
  '0033-dashboard-loan-indexes': dashboardLoanIndexes,
  '0034-webhook-attempts': webhookAttempts,
  '0035-dashboard-clinic-lists': dashboardClinicLists,
  '0036-meeting-presence': meetingPresence,
  '0037-languages': languages,
  '0038-financing-books': financingBooks,
  '0039-guarded-writes': guardedWrites,
  '0040-statistics-free-lists': statisticsFreeLists,
  '0041-account-gates': accountGates,
  '0042-key-scopes': keyScopes,
  '0044-push-contact': pushContact,
  '0048-loan-reviews': loanReviews,
  '0049-review-reasons': reviewReasons,
  '0050-staff-accounts': staffAccounts,
  '0051-ops-proposals': opsProposals,
  '0053-mandate-expiry': mandateExpiry,
  '0055-borrower-sessions': borrowerSessions,
  '0056-early-settlement': earlySettlement,
  '0057-live-refusal': liveRefusal,
  '0059-mandate-replacements': mandateReplacements,
  '0058-insurance-policy-records': insurancePolicyRecords,
  '0060-borrower-reminders': borrowerReminders,
  '0061-repayment-initiator': repaymentInitiator,
};

export function columnTypes(dialect: Dialect): ColumnTypes {
  return dialect === 'postgres'
    ? { bool: 'boolean', bigint: 'bigint', timestamp: 'timestamptz', json: 'jsonb', blob: 'bytea' }
    : { bool: 'integer', bigint: 'integer', timestamp: 'text', json: 'text', blob: 'blob' };
}

/**
 * Brings the schema to the latest version; safe to call from several processes at once.
 * Runs on the handle's migration connection (on PostgreSQL one without pipelining, whose introspection sees
 * its own schema only: another schema changing meanwhile cannot make it fail), which it closes when done.
 * `until` (tests of a migration over older data) stops after the named migration.
 */
export async function migrateToLatest(handle: DatabaseHandle, pgSchema?: string, until?: string): Promise<void> {
  const db = handle.openForMigrations();
  try {
    await migrate(db, handle.dialect, pgSchema, until);
  } finally {
    if (db !== handle.db) await db.destroy();
  }
}

async function migrate(db: Db, dialect: Dialect, pgSchema: string | undefined, until: string | undefined): Promise<void> {
  const types = columnTypes(dialect);
  const provider = {
    async getMigrations(): Promise<Record<string, Migration>> {
      return Object.fromEntries(
        Object.entries(migrations)
          .filter(([name]) => until === undefined || name <= until)
          .map(([name, m]) => [name, { up: (d: Kysely<unknown>) => m.up(d, types) }]),
      );
    },
  };
  // Naming the schema keeps Kysely from mistaking another schema's bookkeeping tables for ours.
  const schema =
    dialect === 'postgres'
      ? (pgSchema ?? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema)
      : undefined;
  const { error, results } = await new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = String((error as Error)?.message ?? error);
    throw new Error(failed ? `migration ${failed.migrationName} failed: ${cause}` : `migrations could not start: ${cause}`, { cause: error });
  }
}

/**
 * The known migrations not applied to this database (readiness: a process whose schema is behind its
 * code is not ready). One small query; a database without the bookkeeping table has every one pending.
 */
export async function pendingMigrations(db: Db, pgSchema?: string): Promise<string[]> {
  const table = pgSchema ? sql.table(`${pgSchema}.kysely_migration`) : sql.table('kysely_migration');
  let applied: Set<string>;
  try {
    applied = new Set((await sql<{ name: string }>`select name from ${table}`.execute(db)).rows.map((r) => r.name));
  } catch (error) {
    if (/does not exist|no such table/i.test((error as Error).message)) applied = new Set();
    else throw error;
  }
  return Object.keys(migrations).filter((name) => !applied.has(name));
}
