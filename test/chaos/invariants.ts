import { sql } from 'kysely';
import type { Db } from '../../server/platform/db/database';
import { isCreditNormal } from '../../server/platform/domain/ledger/ledger';
import { CHARGE_SENDING } from '../../server/platform/domain/repayments/collect-mandates';
import type { PartnerClient, WriteRecord } from './http-client';
import type { Receiver } from './receiver';
import type { Tally } from './workload';

/** One named check: what it asserts, whether it held, and what broke it. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** Guarded accounts on the wrong side of zero right now (a pool, wallet or payable beyond its guard). */
export async function guardBreaches(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('ledgerAccounts').select(['id', 'kind', 'code', 'balanceKobo']).where('allowNegative', '=', false).execute();
  return rows.filter((r) => (isCreditNormal(r.kind) ? Number(r.balanceKobo) > 0 : Number(r.balanceKobo) < 0)).map((r) => `${r.kind}/${r.code}: ${r.balanceKobo}`);
}

const n = (v: unknown) => Number(v);

/** Where the resource a 2xx write answered with must now be. */
function createdBy(record: WriteRecord): { table: 'preapprovals' | 'loans' | 'loanRepayments' | 'loanMandates' | 'payoutRequests'; id: string } | undefined {
  const data = record.answer.json?.data;
  if (!data) return undefined;
  if (record.path === '/v1/preapprovals') return { table: 'preapprovals', id: data.preapprovalId };
  if (/\/issue-offer$|\/accept-terms$|\/disburse$/.test(record.path)) return { table: 'loans', id: data.id };
  if (/\/repayments$/.test(record.path)) return { table: 'loanRepayments', id: data.id };
  if (/\/mandates$|simulate-activation$/.test(record.path)) return { table: 'loanMandates', id: data.id };
  if (record.path === '/v1/payouts') return { table: 'payoutRequests', id: data.id };
  return undefined;
}

export async function checkInvariants(args: {
  db: Db;
  organisationId: string;
  clients: PartnerClient[];
  tally: Tally;
  receiver: Receiver;
  ledgerCheck: { ok: boolean };
  guardSamples: number;
  guardBreachesSeen: string[];
  settledRepaymentIds: string[];
}): Promise<Check[]> {
  const { db, organisationId, clients, tally, receiver } = args;
  const checks: Check[] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });

  check('admin ledger check balanced', args.ledgerCheck.ok, JSON.stringify(args.ledgerCheck).slice(0, 600));
  const breachesNow = await guardBreaches(db);
  check(
    'no pool, wallet or payable ever beyond its guard',
    args.guardBreachesSeen.length === 0 && breachesNow.length === 0,
    `${args.guardSamples} samples during the run; breaches: ${[...args.guardBreachesSeen, ...breachesNow].slice(0, 5).join('; ') || 'none'}`,
  );

  // Every 2xx write is there.
  const writes = clients.flatMap((c) => c.writes);
  const missing: string[] = [];
  const wanted = new Map<string, string[]>();
  for (const w of writes) {
    if (w.answer.status >= 300) continue;
    const target = createdBy(w);
    if (!target) continue;
    wanted.set(target.table, [...(wanted.get(target.table) ?? []), target.id]);
  }
  for (const [table, ids] of wanted) {
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await db.selectFrom(table as 'loans').select('id').where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const r of rows) found.add(r.id);
    }
    for (const id of ids) if (!found.has(id)) missing.push(`${table}/${id}`);
  }
  const answered = writes.filter((w) => w.answer.status < 300).length;
  check('every write answered 2xx is present', missing.length === 0, `${answered} writes answered 2xx; missing: ${missing.slice(0, 5).join(', ') || 'none'}`);

  // Disbursed loans: the client's answer and the database agree, each loan once.
  const disbursedByClients = writes.filter((w) => w.path.endsWith('/disburse') && w.answer.status === 200).map((w) => w.answer.json.data.id as string);
  const disbursements = await db
    .selectFrom('ledgerTransactions')
    .select(['reference', sql<number>`count(*)`.as('n')])
    .where('organisationId', '=', organisationId)
    .where('kind', '=', 'disbursement')
    .groupBy('reference')
    .execute();
  const twice = disbursements.filter((d) => n(d.n) > 1).map((d) => d.reference);
  const disbursedLoans = await db.selectFrom('loans').select('id').where('organisationId', '=', organisationId).where('disbursedAt', 'is not', null).execute();
  const unanswered = disbursedLoans.filter((l) => !disbursedByClients.includes(l.id));
  check(
    'no loan disbursed twice',
    twice.length === 0 && disbursements.length === disbursedLoans.length && unanswered.length === 0,
    `${disbursedLoans.length} loans disbursed, ${disbursements.length} disbursement transactions, ${disbursedByClients.length} answered 200; twice: ${twice.slice(0, 3).join(', ') || 'none'}; disbursed without a 200: ${unanswered.length}`,
  );

  // Instalments: no bucket paid beyond what it holds.
  const over = await db
    .selectFrom('loanScheduleItems')
    .select(['loanId', 'installmentNumber'])
    .where('organisationId', '=', organisationId)
    .where((eb) =>
      eb.or([
        eb('paidPrincipalKobo', '>', eb.ref('principalKobo')),
        eb('paidInterestKobo', '>', eb.ref('interestKobo')),
        eb(sql`paid_fee_kobo`, '>', sql`fee_kobo + late_fee_kobo`),
        eb(sql`amount_paid_kobo`, '>', sql`total_kobo + late_fee_kobo`),
        eb(sql`amount_paid_kobo`, '<>', sql`paid_principal_kobo + paid_interest_kobo + paid_fee_kobo`),
      ]),
    )
    .execute();
  const allocations = await db
    .selectFrom('loanRepayments')
    .select(['loanId', sql<number>`sum(amount_kobo)`.as('applied')])
    .where('organisationId', '=', organisationId)
    .where('status', '=', 'completed')
    .groupBy('loanId')
    .execute();
  const paidPerLoan = await db
    .selectFrom('loanScheduleItems')
    .select(['loanId', sql<number>`sum(amount_paid_kobo)`.as('paid')])
    .where('organisationId', '=', organisationId)
    .groupBy('loanId')
    .execute();
  const paid = new Map(paidPerLoan.map((p) => [p.loanId, n(p.paid)]));
  const mismatched = allocations.filter((a) => paid.get(a.loanId) !== n(a.applied)).map((a) => `${a.loanId}: applied ${a.applied}, instalments paid ${paid.get(a.loanId)}`);
  check(
    'no instalment over-allocated',
    over.length === 0 && mismatched.length === 0,
    `${paidPerLoan.length} loans' schedules; over-allocated: ${over.length}; repayments and instalments disagree: ${mismatched.slice(0, 3).join('; ') || 'none'}`,
  );

  // Mandates: one charge at the rail per repayment, each succeeded charge recorded once, the collector never beyond what was due.
  const charges = await db
    .selectFrom('sandboxRailCharges as c')
    .leftJoin('loanRepayments as r', 'r.reference', 'c.reference')
    .select(['c.reference', 'c.status', 'c.chargeReference', 'r.id as repaymentId', 'r.status as repaymentStatus', 'r.chargeReference as recorded', 'r.loanId'])
    .where((eb) => eb.or([eb('r.organisationId', '=', organisationId), eb('r.id', 'is', null)]))
    .execute();
  const orphan = charges.filter((c) => !c.repaymentId).map((c) => c.reference);
  const unrecorded = charges.filter((c) => c.status === 'succeeded' && (c.repaymentStatus !== 'completed' || c.recorded !== c.chargeReference)).map((c) => c.reference);
  const collected = await db
    .selectFrom('loanRepayments')
    .select(['loanId', sql<number>`count(*)`.as('n'), sql<number>`sum(unallocated_kobo)`.as('unallocated')])
    .where('organisationId', '=', organisationId)
    .where('method', '=', 'mandate')
    .where('status', '=', 'completed')
    .where('loanId', 'in', tally.collectLoans.length ? tally.collectLoans : ['-'])
    .groupBy('loanId')
    .execute();
  const doubled = collected.filter((c) => n(c.n) > 1 || n(c.unallocated) > 0).map((c) => `${c.loanId}: ${c.n} charges, ${c.unallocated} unallocated`);
  const firstPaid = await db
    .selectFrom('loanScheduleItems')
    .select('loanId')
    .where('loanId', 'in', tally.collectLoans.length ? tally.collectLoans : ['-'])
    .where('installmentNumber', '=', 1)
    .where('status', '=', 'paid')
    .execute();
  // A charge the rail refused (the sandbox refuses amounts ending in 51 or 52 kobo, as a bank refuses an empty
  // account) leaves the instalment unpaid and takes no money: a legitimate end, retried a day later.
  const refused = await db
    .selectFrom('loanRepayments as r')
    .innerJoin('sandboxRailCharges as c', 'c.reference', 'r.reference')
    .select(['r.loanId', 'r.failureReason', 'c.status as railStatus'])
    .where('r.loanId', 'in', tally.collectLoans.length ? tally.collectLoans : ['-'])
    .where('r.method', '=', 'mandate')
    .where('r.status', '=', 'failed')
    .execute();
  const paidLoans = new Set(firstPaid.map((p) => p.loanId));
  const refusedLoans = new Set(refused.filter((r) => r.railStatus === 'failed' && !paidLoans.has(r.loanId)).map((r) => r.loanId));
  const failedButTaken = refused.filter((r) => r.railStatus !== 'failed').map((r) => r.loanId);
  // A worker killed between claiming a send and recording it leaves the charge claimed for CHARGE_SEND_LEASE_MS (5 min)
  // before another takes it over and looks it up at the rail by reference: in flight, not lost (and never sent twice).
  const inFlight = await db
    .selectFrom('loanRepayments')
    .select('loanId')
    .where('loanId', 'in', tally.collectLoans.length ? tally.collectLoans : ['-'])
    .where('method', '=', 'mandate')
    .where('status', '=', 'pending')
    .where('failureReason', '=', CHARGE_SENDING)
    .execute();
  const inFlightLoans = new Set(inFlight.map((r) => r.loanId).filter((id) => !paidLoans.has(id)));
  const neither = tally.collectLoans.filter((id) => !paidLoans.has(id) && !refusedLoans.has(id) && !inFlightLoans.has(id));
  check(
    'no mandate charged twice for one instalment',
    orphan.length === 0 && unrecorded.length === 0 && doubled.length === 0 && failedButTaken.length === 0 && neither.length === 0,
    `${charges.length} rail charges (${charges.filter((c) => c.status === 'succeeded').length} succeeded); ${tally.collectLoans.length} instalments made due: ${firstPaid.length} paid by the collector, ` +
      `${refusedLoans.size} refused by the rail with nothing taken, ${inFlightLoans.size} claimed by a killed worker (taken over after the send lease), ${neither.length} neither (${neither.slice(0, 3).join(', ') || 'none'}); charges without a repayment: ${orphan.length}; ` +
      `succeeded but not recorded: ${unrecorded.length}; failed yet taken: ${failedButTaken.length}; charged twice: ${doubled.slice(0, 3).join('; ') || 'none'}`,
  );

  // Settlement: one statement for the day, every repayment moved to it stamped once, the sweep equals their fee and interest.
  const statements = await db.selectFrom('settlementStatements').selectAll().where('organisationId', '=', organisationId).execute();
  const stamped = await db
    .selectFrom('loanRepayments')
    .select(['id', 'settlementId', 'feePortionKobo', 'interestPortionKobo'])
    .where('organisationId', '=', organisationId)
    .where('settlementId', 'is not', null)
    .execute();
  const unstamped = args.settledRepaymentIds.filter((id) => !stamped.some((s) => s.id === id));
  const sweptByRepayments = stamped.reduce((s, r) => s + n(r.feePortionKobo) + n(r.interestPortionKobo), 0);
  const sweptByStatements = statements.reduce((s, st) => s + n(st.totalSweptKobo), 0);
  const settlementTransfers = await db.selectFrom('ledgerTransactions').select('id').where('organisationId', '=', organisationId).where('kind', '=', 'settlement').execute();
  check(
    'settlement: each day once, each repayment once',
    (args.settledRepaymentIds.length === 0 || statements.length === 1) && unstamped.length === 0 && sweptByRepayments === sweptByStatements && settlementTransfers.length === statements.filter((s) => n(s.totalSweptKobo) > 0).length,
    `${statements.length} statement(s), ${stamped.length} repayments stamped (${args.settledRepaymentIds.length} moved to yesterday, ${unstamped.length} not stamped), swept ${sweptByStatements} kobo by statements and ${sweptByRepayments} by repayments, ${settlementTransfers.length} settlement transfer(s)`,
  );

  // Retries got the original answer: every write sent again with its key answers the same bytes.
  const replayMismatch: string[] = [];
  let replays = 0;
  for (const client of clients) {
    for (const w of client.writes) {
      const again = await client.replay(w);
      replays += 1;
      if (again.status !== w.answer.status || again.text !== w.answer.text || !again.replayed) {
        replayMismatch.push(`${w.path} (${w.retries.length} retries): first ${w.answer.status}, replay ${again.status}${again.replayed ? '' : ' not replayed'}`);
      }
    }
  }
  const retried = writes.filter((w) => w.retries.length > 0);
  // A retry answered from the store: the attempt the client lost had committed, and the retry did not run it again.
  const committedBeforeRetry = retried.filter((w) => w.answer.replayed).length;
  check(
    'every retried request got the original answer',
    replayMismatch.length === 0,
    `${replays} writes replayed with their Idempotency-Key (${retried.length} had been retried under faults, ${committedBeforeRetry} of those answered from the store because the lost attempt had committed); differing: ${replayMismatch.slice(0, 3).join('; ') || 'none'}`,
  );

  // Idempotent retries created nothing twice: one pre-approval per push, one repayment per answered repayment.
  const pushes = writes.filter((w) => w.path === '/v1/preapprovals' && w.answer.status === 202).length;
  const preapprovals = await db.selectFrom('preapprovals').select(sql<number>`count(*)`.as('n')).where('organisationId', '=', organisationId).executeTakeFirstOrThrow();
  const clientRepayments = new Set(writes.filter((w) => w.path.endsWith('/repayments') && w.answer.status < 300).map((w) => w.answer.json.data.id as string));
  const repaymentRows = await db
    .selectFrom('loanRepayments')
    .select('id')
    .where('organisationId', '=', organisationId)
    .where('loanId', 'in', tally.repaidLoans.length ? tally.repaidLoans : ['-'])
    .execute();
  const extra = repaymentRows.filter((r) => !clientRepayments.has(r.id));
  const payoutsAnswered = writes.filter((w) => w.path === '/v1/payouts' && w.answer.status === 201).length;
  const payoutRows = await db.selectFrom('payoutRequests').select(sql<number>`count(*)`.as('n')).where('organisationId', '=', organisationId).executeTakeFirstOrThrow();
  check(
    'no write done twice by a retry',
    n(preapprovals.n) === pushes && extra.length === 0 && n(payoutRows.n) === payoutsAnswered,
    `${pushes} pushes answered, ${preapprovals.n} pre-approvals; ${clientRepayments.size} repayments answered, ${repaymentRows.length} on those loans; ${payoutsAnswered} payouts answered, ${payoutRows.n} payout requests`,
  );

  // Webhooks: every committed event delivered at least once, no (delivery, attempt) twice.
  const events = await db.selectFrom('events').select(['id', 'name']).where('organisationId', '=', organisationId).where('api', '=', 'lending').execute();
  const undelivered = events.filter((e) => !receiver.delivered.has(e.id));
  const seen = new Map<string, number>();
  for (const a of receiver.attempts) seen.set(`${a.deliveryId}#${a.attempt}`, (seen.get(`${a.deliveryId}#${a.attempt}`) ?? 0) + 1);
  const repeated = [...seen].filter(([, count]) => count > 1).map(([k]) => k);
  check(
    'every committed event delivered at least once',
    undelivered.length === 0,
    `${events.length} events, ${receiver.delivered.size} delivered; undelivered: ${undelivered.slice(0, 3).map((e) => `${e.name} ${e.id}`).join(', ') || 'none'}`,
  );
  check('no (delivery, attempt) pair sent twice', repeated.length === 0, `${receiver.attempts.length} attempts received; repeated: ${repeated.slice(0, 3).join(', ') || 'none'}`);

  const internal = clients.flatMap((c) => c.internalErrors);
  check('no 500 answer and no unexpected answer', internal.length === 0 && tally.unexpected.length === 0, `500s: ${internal.slice(0, 2).map((e) => `${e.path} ${e.text}`).join('; ') || 'none'}; unexpected: ${tally.unexpected.slice(0, 3).join('; ') || 'none'}`);
  return checks;
}
