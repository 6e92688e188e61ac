import type { Executor } from '../../db/database';
import type { PayoutRequestsTable } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { ensureAccount, postTransaction, type AccountRef } from '../ledger/ledger';
import { payoutLedgerRef, toPayout, type PayoutRequest } from './payout';

/** Payouts still holding their reservation. `settling` is reserved for an asynchronous bank transfer. */
const OPEN = ['requested', 'settling'];

export interface PayoutOutcome {
  payout: PayoutRequest;
  /** false when the payout was already in the asked-for end state (an idempotent repeat). */
  changed: boolean;
}

async function payoutRow(db: Executor, id: string): Promise<PayoutRequestsTable> {
  const row = await db.selectFrom('payoutRequests').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('payout');
  return row;
}

/**
 * Operator: the bank transfer happened off-platform under `reference`. Consumes the reservation:
 * reservation +A, the wallet or payable clearing cash (`settlement_cash`) −A. Repeating it with the
 * same reference returns the payout unchanged; another reference, or a rejected payout, is refused.
 */
export async function settlePayout(db: Executor, options: { id: string; reference: string; now: Date }): Promise<PayoutOutcome> {
  const row = await payoutRow(db, options.id);
  if (row.status === 'completed' && row.settlementReference === options.reference) return { payout: toPayout(row), changed: false };
  const at = options.now.toISOString();
  const ledgerRef = payoutLedgerRef(row.id, 'settle');
  const moved = await db
    .updateTable('payoutRequests')
    .set({ status: 'completed', settledAt: at, settlementReference: options.reference, ledgerTransactionRef: ledgerRef, updatedAt: at })
    .where('id', '=', row.id)
    .where('status', 'in', OPEN)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) {
    const current = await payoutRow(db, row.id);
    if (current.status === 'completed' && current.settlementReference === options.reference) return { payout: toPayout(current), changed: false };
    throw new AppError('invalid_payout_state', `payout ${row.id} is ${current.status}${current.settlementReference ? ` (reference ${current.settlementReference})` : ''}; it cannot be settled under ${options.reference}`);
  }
  const scope = { organisationId: row.organisationId, mode: row.mode };
  const cashCode = row.sourceKind === 'borrower_payable' ? 'borrower_bank_account' : 'borrower_wallet';
  await move(db, row, ledgerRef, 'payout_settlement', { ...scope, kind: 'settlement_cash', code: cashCode }, `payout ${row.id} settled off-platform (${options.reference})`, options.now);
  return { payout: toPayout(await payoutRow(db, row.id)), changed: true };
}

/**
 * Operator: the payout will not be made. Releases the reservation back to where it came from
 * (reservation +A, wallet or payable −A). Repeating it returns the payout unchanged (the first
 * reason stays); a completed payout is refused.
 */
export async function rejectPayout(db: Executor, options: { id: string; reason: string; now: Date }): Promise<PayoutOutcome> {
  const row = await payoutRow(db, options.id);
  if (row.status === 'rejected') return { payout: toPayout(row), changed: false };
  const at = options.now.toISOString();
  const ledgerRef = payoutLedgerRef(row.id, 'release');
  const moved = await db
    .updateTable('payoutRequests')
    .set({ status: 'rejected', rejectionReason: options.reason, ledgerTransactionRef: ledgerRef, updatedAt: at })
    .where('id', '=', row.id)
    .where('status', 'in', OPEN)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) {
    const current = await payoutRow(db, row.id);
    if (current.status === 'rejected') return { payout: toPayout(current), changed: false };
    throw new AppError('invalid_payout_state', `payout ${row.id} is ${current.status}; it cannot be rejected`);
  }
  const scope = { organisationId: row.organisationId, mode: row.mode };
  const source: AccountRef = { ...scope, kind: row.sourceKind === 'borrower_payable' ? 'borrower_payable' : 'borrower_wallet', code: row.borrowerId };
  await move(db, row, ledgerRef, 'payout_release', source, `payout ${row.id} rejected: ${options.reason}`, options.now);
  return { payout: toPayout(await payoutRow(db, row.id)), changed: true };
}

/** reservation +A, `to` −A. */
async function move(db: Executor, row: PayoutRequestsTable, reference: string, kind: string, to: AccountRef, description: string, now: Date): Promise<void> {
  const scope = { organisationId: row.organisationId, mode: row.mode };
  const reservation = await ensureAccount(db, { ...scope, kind: 'payout_reservation', code: row.borrowerId }, now);
  const target = await ensureAccount(db, to, now);
  const amount = Number(row.amountKobo);
  await postTransaction(db, {
    ...scope,
    reference,
    kind,
    description,
    postings: [
      { account: reservation, amountKobo: amount },
      { account: target, amountKobo: -amount },
    ],
    now,
  });
}
