/**
 * `npm run rehearse [-- --port N] [-- --stop-after SECONDS]`: a rehearsal of live mode on this machine
 * (docs/rehearsal.md). Prints the live key pair, the providers' pages and a walk-through; Ctrl-C (or SIGTERM, or
 * `--stop-after`) stops the platform and the fakes and deletes the rehearsal's data.
 */
import { parseArgs } from 'node:util';
import { REHEARSAL_ACCOUNT, REHEARSAL_BORROWER, REHEARSAL_BVN, REHEARSAL_POOL_KOBO, startRehearsal } from './rehearsal';

const { values } = parseArgs({ options: { port: { type: 'string' }, 'stop-after': { type: 'string' } } });
const port = values.port === undefined ? 0 : Number(values.port);
const stopAfter = values['stop-after'] === undefined ? undefined : Number(values['stop-after']);
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail('--port must be a port number (0: a free one)');
if (stopAfter !== undefined && (!Number.isFinite(stopAfter) || stopAfter <= 0)) fail('--stop-after must be a number of seconds');

function fail(message: string): never {
  process.stderr.write(`rehearse: ${message}\n`);
  process.exit(2);
}

process.stdout.write('Starting a rehearsal of live mode: the providers\' local fakes, then the platform (building what changed)…\n');
const rehearsal = await startRehearsal({ port, onPeopleText: (text) => process.stdout.write(text) });
const { baseUrl, liveKeys, fakes } = rehearsal;
const keyHeaders = `-H 'X-API-Public-Key: ${liveKeys.publicKey}' -H 'X-API-Secret-Key: ${liveKeys.secretKey}'`;
const json = `-H 'content-type: application/json'`;
const naira = (kobo: number) => `₦${(kobo / 100).toLocaleString('en-NG')}`;
const push = JSON.stringify({
  borrower: REHEARSAL_BORROWER,
  decision: {
    metadata: { assessment_id: 'rehearsal-1', bvn: REHEARSAL_BVN },
    decision: { recommendation: 'APPROVE', approved_amount: 50000, conditions: { interest_rate: 3.5, tenor_days: 90, repayment_frequency: 'monthly' } },
  },
});

process.stdout.write(`
Rehearsal of live mode ready: everything runs on this machine, nothing leaves it.
  platform          ${baseUrl}  (production profile, REHEARSAL=true, live mode on the fakes below)
  live providers    ${rehearsal.liveProviders}
  organisation      ${rehearsal.organisationId} (Rehearsal Lending, enabled for live mode)
  live pool         MAIN ${naira(REHEARSAL_POOL_KOBO)}; product ${rehearsal.productCode} (pre-approvals are issued on it)
  live public key   ${liveKeys.publicKey}
  live secret key   ${liveKeys.secretKey}
  dashboard         ${baseUrl}/dashboard as ${rehearsal.dashboardOwner.email} (switch to live at the top); choose a password:
                    ${rehearsal.dashboardOwner.setPasswordUrl}
  data directory    ${rehearsal.dataDir} (deleted when the rehearsal stops; platform log: ${rehearsal.logFile})

The providers (local fakes, each with its own page):
  Paystack  ${fakes.paystack.url}/_fake   rail_a direct debit: approve or decline a mandate, fail a debit, name an account
  Mono      ${fakes.mono.url}/_fake   bureau report good or bad, set an account's balance, fail a debit (rail_b)
  Dojah     ${fakes.dojah.url}/_fake   BVN records, the AML watch list
  Termii    ${fakes.termii.url}/_fake   the texts sent (the borrower's one-time code)

Walk-through (docs/rehearsal.md):
  1. Push a live pre-approval:
     curl -s ${baseUrl}/v1/preapprovals ${keyHeaders} ${json} -d '${push}'
  2. Issue its offer (PREAPPROVAL_ID from step 1); the answer's applicationUrl is the borrower's checkout:
     curl -s -X POST ${baseUrl}/v1/preapprovals/PREAPPROVAL_ID/issue-offer ${keyHeaders} ${json} -d '{}'
  3. Open the applicationUrl in a phone-sized window: "Send code", read the code on the Termii page, sign as
     ${REHEARSAL_BORROWER.firstName} ${REHEARSAL_BORROWER.lastName}, bank ${REHEARSAL_ACCOUNT.bankName} ${REHEARSAL_ACCOUNT.number} (named ${REHEARSAL_ACCOUNT.name} by Paystack),
     "Set up direct debit", then Approve on Paystack's page (Decline to see the way back).
  4. Disburse (LOAN_ID is the offer's id):
     curl -s -X POST ${baseUrl}/v1/loans/LOAN_ID/disburse ${keyHeaders}
  5. Make the first instalment due now (live loans only while a rehearsal runs):
     DATA_DIR=${rehearsal.dataDir} npm run -s admin -- loan make-due --id LOAN_ID --json
  6. Within seconds the collector debits it on Paystack (its page lists the debit; "Fail the next debit" first to see
     a failed one); the loan's repayments:
     curl -s ${baseUrl}/v1/loans/LOAN_ID/repayments ${keyHeaders}

Ctrl-C stops the rehearsal${stopAfter ? ` (it stops by itself after ${stopAfter} s)` : ''}.
Rehearsal ready.
`);

let stopping = false;
const stop = async (why: string) => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\nStopping the rehearsal (${why}): the platform, the fakes, then its data…\n`);
  await rehearsal.stop();
  process.stdout.write('Rehearsal stopped.\n');
  process.exit(0);
};
process.on('SIGINT', () => void stop('Ctrl-C'));
process.on('SIGTERM', () => void stop('SIGTERM'));
if (stopAfter) setTimeout(() => void stop(`${stopAfter} s passed`), stopAfter * 1000).unref();
void rehearsal.exited.then((code) => {
  if (stopping) return;
  process.stderr.write(`The platform stopped by itself (exit ${code}); its log: ${rehearsal.logFile}\n`);
  void stop('the platform stopped');
});
