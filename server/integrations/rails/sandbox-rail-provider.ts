/**
 * # Sandbox direct-debit rails (`rail_a`, `rail_b`)
 *
 * Two identical, independent stand-ins for direct-debit providers such as Paystack direct debit and
 * Mono DirectPay, served by the platform itself under `/sandbox/rails/{rail}`. They behave like the
 * real thing, only faster and with magic amounts. State is kept in the database, so it survives
 * restarts and is shared by every process. No API key is needed (the provider is "another
 * company"); bodies are JSON; errors answer `{error, message}` with a 4xx status.
 *
 * **Authorisations (mandates)**
 * - `POST /sandbox/rails/{rail}/authorisations` `{reference, email, amountKobo, accountNumber?,
 *   bankCode?, callbackUrl?}` → 201 `{providerReference, authorizationUrl, status: "pending"}`.
 *   A reference names one authorisation per rail: sending it again with the same details answers
 *   200 with the same authorisation, with other details 409 `reference_conflict`.
 * - `GET /sandbox/rails/{rail}/authorise/{providerReference}` (`authorizationUrl`) is the page the
 *   borrower sees: amount in naira, masked account, e-mail, and **Approve** / **Refuse** buttons.
 *   Approving makes the authorisation `approved`; refusing makes it `refused`. The borrower is then
 *   sent (303) to `callbackUrl` with `reference={providerReference}&status={approved|refused}`
 *   added to its query, or shown a "you can close this page" confirmation when there is none.
 *   Sending the same decision again repeats the redirect; the other decision answers 409.
 * - `approved` is **not chargeable**: the provider confirms the mandate `RAIL_CONFIRMATION_LAG_MS`
 *   (default 3 s) after approval. From then on the authorisation reads `active` with an
 *   `authorizationCode` (`AUTH_` + 10 characters). The code is only ever returned by the JSON API,
 *   never on the page.
 * - `GET /sandbox/rails/{rail}/authorisations/{providerReference}` → `{providerReference, reference,
 *   status, authorizationCode, amountKobo, …}`; `authorizationCode` is null unless `active`.
 * - `POST /sandbox/rails/{rail}/authorisations/{providerReference}/cancel` → `cancelled` (from
 *   pending, approved or active; again → the same answer; a refused authorisation stays `refused`).
 *   Charges already processing are not recalled.
 *
 * **Charges**
 * - `POST /sandbox/rails/{rail}/charges` `{authorizationCode, amountKobo, reference}` → 202
 *   `{status: "processing", chargeReference}`. The answer only acknowledges the debit and is always
 *   `processing`, also when the same reference is sent again (same reference and details → the same
 *   charge; other details → 409 `reference_conflict`). Unknown code → 422
 *   `authorization_code_invalid`; an authorisation that is not `active` → 409 `authorisation_not_active`.
 * - `GET /sandbox/rails/{rail}/charges/{chargeReference}` → `{status, failureReason, …}`:
 *   `processing` until `RAIL_CHARGE_LAG_MS` (default 1 s) has passed, then decided by the last two
 *   digits of `amountKobo`: `…51` fails with `insufficient_funds`, `…52` fails with
 *   `do_not_honour`, anything else `succeeded`. The sandbox does not cap debits at the mandate amount.
 *
 * **Test mode only.** The sandbox serves the authorisations of test-mode mandates: one whose
 * platform reference belongs to a live mandate (set up before live mode stopped reaching the
 * sandbox) is not found by any route (read, page, decision, cancel, charge), so nobody can read
 * its code or approve it.
 *
 * Time comes from the platform clock and the lags are applied when a record is read (no background
 * job): the first read after the lag records the transition, so every later read agrees.
 */

import crypto from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { Db } from '../../platform/db/database';
import { isUniqueViolation } from '../../shared/unique-violation';
import type { Clock } from '../clock';
import type { ProviderAuthorisationStatus, RailName } from './payment-rail';
import { RailProviderError } from './sandbox-rail-errors';
import {
  maskAccountNumber,
  toAuthorisation,
  toCharge,
  type AuthorisationRecord,
  type AuthorisationRow,
  type ChargeRecord,
  type ChargeRow,
  type Decision,
  type NewAuthorisation,
  type NewCharge,
} from './sandbox-rail-records';

/** The magic amounts: the kobo digits decide how a charge ends. */
export function chargeOutcome(amountKobo: number): { status: 'succeeded' | 'failed'; failureReason: string | null } {
  const kobo = amountKobo % 100;
  if (kobo === 51) return { status: 'failed', failureReason: 'insufficient_funds' };
  if (kobo === 52) return { status: 'failed', failureReason: 'do_not_honour' };
  return { status: 'succeeded', failureReason: null };
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const randomToken = (length: number): string => Array.from({ length }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]).join('');
const newProviderReference = () => `mdt_${crypto.randomBytes(12).toString('hex')}`;
const newChargeReference = () => `chg_${crypto.randomBytes(12).toString('hex')}`;
const newAuthorizationCode = () => `AUTH_${randomToken(10)}`;

/** Filters out authorisations whose platform reference belongs to a live mandate (the sandbox serves test mode only). */
const testModeOnly = (eb: ExpressionBuilder<Database, 'sandboxRailAuthorisations'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('loanMandates')
        .select('loanMandates.id')
        .whereRef('loanMandates.reference', '=', 'sandboxRailAuthorisations.reference')
        .where('loanMandates.mode', '!=', 'test'),
    ),
  );

const notFound = (what: string) => new RailProviderError('not_found', `No ${what} on this rail.`);

export interface SandboxRailProviderOptions {
  db: Db;
  clock: Clock;
  confirmationLagMs: number;
  chargeLagMs: number;
}

/** The provider's state and rules; the router only parses and renders. */
export class SandboxRailProvider {
  constructor(private readonly options: SandboxRailProviderOptions) {}

  private get db() {
    return this.options.db;
  }

  private nowIso(): string {
    return this.options.clock.now().toISOString();
  }

  async createAuthorisation(rail: RailName, input: NewAuthorisation): Promise<{ authorisation: AuthorisationRecord; created: boolean }> {
    if (await this.isLiveReference(input.reference)) throw new RailProviderError('reference_conflict', 'This reference cannot be used on the sandbox rail.');
    const now = this.nowIso();
    const row: AuthorisationRow = {
      providerReference: newProviderReference(),
      rail,
      reference: input.reference,
      email: input.email,
      accountNumberMasked: input.accountNumber ? maskAccountNumber(input.accountNumber) : null,
      bankCode: input.bankCode ?? null,
      amountKobo: input.amountKobo,
      callbackUrl: input.callbackUrl ?? null,
      status: 'pending',
      authorizationCode: null,
      approvedAt: null,
      confirmedAt: null,
      refusedAt: null,
      cancelledAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const existing = await this.authorisationByReference(rail, input.reference);
    if (existing) return { authorisation: await this.replayedAuthorisation(existing, row), created: false };
    try {
      await this.db.insertInto('sandboxRailAuthorisations').values(row).execute();
      return { authorisation: toAuthorisation(row), created: true };
    } catch (error) {
      const raced = isUniqueViolation(error) ? await this.authorisationByReference(rail, input.reference) : undefined;
      if (!raced) throw error;
      return { authorisation: await this.replayedAuthorisation(raced, row), created: false };
    }
  }

  /** Reads an authorisation, recording the provider's confirmation once the lag has passed. */
  async readAuthorisation(rail: RailName, providerReference: string): Promise<AuthorisationRecord> {
    const row = await this.authorisationRow(rail, providerReference);
    if (!row) throw notFound('authorisation');
    return toAuthorisation(await this.confirmIfDue(row));
  }

  /** The borrower's answer on the authorisation page; the same answer twice is not an error. */
  async decide(rail: RailName, providerReference: string, decision: Decision): Promise<AuthorisationRecord> {
    if (!(await this.authorisationRow(rail, providerReference))) throw notFound('authorisation');
    const now = this.nowIso();
    for (let attempt = 1; ; attempt += 1) {
      const change =
        decision === 'approve'
          ? { status: 'approved', approvedAt: now, authorizationCode: newAuthorizationCode(), updatedAt: now }
          : { status: 'refused', refusedAt: now, updatedAt: now };
      try {
        await this.db
          .updateTable('sandboxRailAuthorisations')
          .set(change)
          .where('rail', '=', rail)
          .where('providerReference', '=', providerReference)
          .where('status', '=', 'pending')
          .execute();
        break;
      } catch (error) {
        // The drawn authorisation code exists already: draw again.
        if (isUniqueViolation(error) && attempt < 3) continue;
        throw error;
      }
    }
    // Whoever answered first, the authorisation now says what the borrower decided (or why not).
    const current = await this.readAuthorisation(rail, providerReference);
    const wanted: ProviderAuthorisationStatus[] = decision === 'approve' ? ['approved', 'active'] : ['refused'];
    if (!wanted.includes(current.status)) {
      throw new RailProviderError('authorisation_already_decided', `This authorisation is already ${current.status}.`);
    }
    return current;
  }

  /**
   * Test-mode helper behind `POST /v1/test/mandates/{id}/simulate-activation`: the borrower
   * approves and the provider confirms at once (as if the lag had passed), so the mandate gets a
   * real, chargeable authorisation code.
   */
  async approveAndConfirmNow(rail: RailName, providerReference: string): Promise<AuthorisationRecord> {
    const current = await this.readAuthorisation(rail, providerReference);
    if (current.status === 'pending') await this.decide(rail, providerReference, 'approve');
    const backdated = new Date(this.options.clock.now().getTime() - this.options.confirmationLagMs - 1).toISOString();
    await this.db
      .updateTable('sandboxRailAuthorisations')
      .set({ approvedAt: backdated })
      .where('rail', '=', rail)
      .where('providerReference', '=', providerReference)
      .where('status', '=', 'approved')
      .execute();
    return this.readAuthorisation(rail, providerReference);
  }

  async cancel(rail: RailName, providerReference: string): Promise<AuthorisationRecord> {
    if (!(await this.authorisationRow(rail, providerReference))) throw notFound('authorisation');
    const now = this.nowIso();
    await this.db
      .updateTable('sandboxRailAuthorisations')
      .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
      .where('rail', '=', rail)
      .where('providerReference', '=', providerReference)
      .where('status', 'in', ['pending', 'approved', 'active'])
      .execute();
    return this.readAuthorisation(rail, providerReference);
  }

  async createCharge(rail: RailName, input: NewCharge): Promise<{ charge: ChargeRecord; created: boolean }> {
    const existing = await this.chargeByReference(rail, input.reference);
    if (existing) return { charge: await this.replayedCharge(existing, input), created: false };

    const authorisation = await this.db
      .selectFrom('sandboxRailAuthorisations')
      .selectAll()
      .where('rail', '=', rail)
      .where('authorizationCode', '=', input.authorizationCode)
      .where(testModeOnly)
      .executeTakeFirst();
    if (!authorisation) {
      throw new RailProviderError('authorization_code_invalid', 'No authorisation on this rail has this authorizationCode.');
    }
    const confirmed = await this.confirmIfDue(authorisation);
    if (confirmed.status !== 'active') {
      throw new RailProviderError('authorisation_not_active', `The authorisation is ${confirmed.status}, not active; only an active authorisation can be charged.`);
    }
    const now = this.nowIso();
    const row: ChargeRow = {
      chargeReference: newChargeReference(),
      rail,
      reference: input.reference,
      providerReference: confirmed.providerReference,
      amountKobo: input.amountKobo,
      status: 'processing',
      failureReason: null,
      completedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.db.insertInto('sandboxRailCharges').values(row).execute();
      return { charge: toCharge(row), created: true };
    } catch (error) {
      const raced = isUniqueViolation(error) ? await this.chargeByReference(rail, input.reference) : undefined;
      if (!raced) throw error;
      return { charge: await this.replayedCharge(raced, input), created: false };
    }
  }

  /** Reads a charge, recording its result once the charge lag has passed. */
  async readCharge(rail: RailName, chargeReference: string): Promise<ChargeRecord> {
    const row = await this.db
      .selectFrom('sandboxRailCharges')
      .selectAll()
      .where('rail', '=', rail)
      .where('chargeReference', '=', chargeReference)
      .executeTakeFirst();
    if (!row || !(await this.authorisationRow(rail, row.providerReference))) throw notFound('charge');
    const dueAt = Date.parse(row.createdAt) + this.options.chargeLagMs;
    if (row.status !== 'processing' || this.options.clock.now().getTime() < dueAt) return toCharge(row);
    const outcome = chargeOutcome(row.amountKobo);
    const completedAt = new Date(dueAt).toISOString();
    // The outcome is a function of the amount, so a racing reader records the same result.
    await this.db
      .updateTable('sandboxRailCharges')
      .set({ ...outcome, completedAt, updatedAt: this.nowIso() })
      .where('chargeReference', '=', row.chargeReference)
      .where('status', '=', 'processing')
      .execute();
    return toCharge({ ...row, ...outcome, completedAt });
  }

  private authorisationRow(rail: RailName, providerReference: string) {
    return this.db
      .selectFrom('sandboxRailAuthorisations')
      .selectAll()
      .where('rail', '=', rail)
      .where('providerReference', '=', providerReference)
      .where(testModeOnly)
      .executeTakeFirst();
  }

  private authorisationByReference(rail: RailName, reference: string) {
    return this.db
      .selectFrom('sandboxRailAuthorisations')
      .selectAll()
      .where('rail', '=', rail)
      .where('reference', '=', reference)
      .where(testModeOnly)
      .executeTakeFirst();
  }

  private async isLiveReference(reference: string): Promise<boolean> {
    const row = await this.db.selectFrom('loanMandates').select('id').where('reference', '=', reference).where('mode', '!=', 'test').executeTakeFirst();
    return row !== undefined;
  }

  /** A charge by the platform's reference (how an unknown outcome is reconciled), read like `readCharge`; undefined when never taken. */
  async findCharge(rail: RailName, reference: string): Promise<ChargeRecord | undefined> {
    const row = await this.chargeByReference(rail, reference);
    if (!row || !(await this.authorisationRow(rail, row.providerReference))) return undefined;
    return this.readCharge(rail, row.chargeReference);
  }

  private chargeByReference(rail: RailName, reference: string) {
    return this.db
      .selectFrom('sandboxRailCharges')
      .selectAll()
      .where('rail', '=', rail)
      .where('reference', '=', reference)
      .executeTakeFirst();
  }

  /** `approved` becomes `active` once the confirmation lag has passed since approval. */
  private async confirmIfDue(row: AuthorisationRow): Promise<AuthorisationRow> {
    if (row.status !== 'approved' || !row.approvedAt) return row;
    const confirmAt = Date.parse(row.approvedAt) + this.options.confirmationLagMs;
    if (this.options.clock.now().getTime() < confirmAt) return row;
    const confirmedAt = new Date(confirmAt).toISOString();
    const result = await this.db
      .updateTable('sandboxRailAuthorisations')
      .set({ status: 'active', confirmedAt, updatedAt: this.nowIso() })
      .where('providerReference', '=', row.providerReference)
      .where('status', '=', 'approved')
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) return { ...row, status: 'active', confirmedAt };
    // Changed meanwhile (confirmed by another reader, or cancelled): read what is there now.
    return (await this.authorisationRow(row.rail as RailName, row.providerReference)) ?? row;
  }

  private async replayedAuthorisation(existing: AuthorisationRow, requested: AuthorisationRow): Promise<AuthorisationRecord> {
    const same =
      existing.email === requested.email &&
      existing.amountKobo === requested.amountKobo &&
      existing.accountNumberMasked === requested.accountNumberMasked &&
      existing.bankCode === requested.bankCode &&
      existing.callbackUrl === requested.callbackUrl;
    if (!same) {
      throw new RailProviderError('reference_conflict', 'This reference names another authorisation on this rail; use a new reference.');
    }
    return toAuthorisation(await this.confirmIfDue(existing));
  }

  private async replayedCharge(existing: ChargeRow, input: NewCharge): Promise<ChargeRecord> {
    const authorisation = await this.authorisationRow(existing.rail as RailName, existing.providerReference);
    if (existing.amountKobo !== input.amountKobo || authorisation?.authorizationCode !== input.authorizationCode) {
      throw new RailProviderError('reference_conflict', 'This reference names another charge on this rail; use a new reference.');
    }
    return toCharge(existing);
  }
}
