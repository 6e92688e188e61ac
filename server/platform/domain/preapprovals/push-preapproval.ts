import type { Tx } from '../../db/database';
import type { Mode } from '../scope';
import { toJson } from '../../db/database';
import { precompiled } from '../../db/precompiled';
import type { PreapprovalsTable } from '../../db/schema';
import { AppError } from '../errors';
import { enqueueEvent } from '../events/enqueue-event';
import { newId } from '../ids';
import { nairaToKobo, percentToBps } from '../money';
import type { Organisation } from '../organisations/organisation';
import { REPAYMENT_FREQUENCIES } from '../products/product';
import type { Secrets } from '../secrets';
import { borrowerAfterInsert, borrowerInsert, recordMissingNin } from '../borrowers/find-or-create-borrower';
import { ninHash } from '../borrowers/nin';
import { compareWithRecord } from '../borrowers/borrower-match';
import { findPreapprovalByAssessment, toAck, toPreapproval, type Preapproval, type PreapprovalAck } from './preapproval';

export const BVN_HASH_PURPOSE = 'bvn';

export interface PushBorrower {
  firstName: string;
  lastName: string;
  phone: string;
  email?: string | null;
}

export interface PushPreapprovalOptions {
  organisation: Organisation;
  mode: Mode;
  borrower: PushBorrower;
  /** The partner's credit-decision payload, verbatim. */
  decision: Record<string, unknown>;
  enriched?: Record<string, unknown>;
  clientReference?: string;
  providerId?: string;
  secrets: Secrets;
  now: Date;
}

export interface PushResult {
  /** false when the assessment had been pushed before: the stored record is returned (200). */
  created: boolean;
  ack: PreapprovalAck;
  preapproval: Preapproval;
}

type Obj = Record<string, unknown>;
const asObject = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The decision summary the service keeps, converted exactly (naira → kobo, percent → bps). */
interface DecisionSummary {
  assessmentId: string;
  bvn: string;
  nin: string | null;
  recommendation: string;
  approvedAmountKobo: number;
  interestRateBps: number | null;
  tenorDays: number | null;
  repaymentFrequency: string | null;
  confidence: string | null;
  riskBand: string | null;
  trustScore: number | null;
}

export function summariseDecision(payload: Obj): DecisionSummary {
  const metadata = asObject(payload.metadata) ?? {};
  const decision = asObject(payload.decision) ?? {};
  const conditions = asObject(decision.conditions) ?? {};

  const assessmentId = metadata.assessment_id;
  const assessmentText = typeof assessmentId === 'number' && Number.isSafeInteger(assessmentId) ? String(assessmentId) : assessmentId;
  if (typeof assessmentText !== 'string' || assessmentText.trim().length < 1 || assessmentText.length > 255) {
    throw new AppError('assessment_id_required', 'decision.metadata.assessment_id is required (a string of 1-255 characters).');
  }
  const bvn = metadata.bvn;
  if (typeof bvn !== 'string' || !/^\d{11}$/.test(bvn)) {
    throw new AppError('bvn_invalid', 'decision.metadata.bvn is required and must be exactly 11 digits.');
  }
  const nin = metadata.nin;
  if (present(nin) && (typeof nin !== 'string' || nin.length < 11 || nin.length > 15)) {
    throw new AppError('nin_invalid', 'decision.metadata.nin must be a string of 11-15 characters.');
  }
  const recommendation = decision.recommendation;
  if (typeof recommendation !== 'string' || recommendation.trim() === '' || recommendation.length > 50) {
    throw new AppError('recommendation_required', 'decision.decision.recommendation is required (a string of at most 50 characters).');
  }
  const normalisedRecommendation = recommendation.trim().toLowerCase();
  const isDecline = normalisedRecommendation === 'decline';

  let approvedAmountKobo = 0;
  if (present(decision.approved_amount)) {
    const converted = nairaToKobo(decision.approved_amount);
    if (converted === undefined) {
      throw new AppError(
        'approved_amount_invalid',
        'decision.decision.approved_amount must be a non-negative naira amount with at most 2 decimal places.',
      );
    }
    approvedAmountKobo = converted;
  }
  if (!isDecline && approvedAmountKobo <= 0) {
    throw new AppError('approved_amount_invalid', 'decision.decision.approved_amount is required and must be above zero for an approval.');
  }

  let interestRateBps: number | null = null;
  if (present(conditions.interest_rate)) {
    const bps = percentToBps(conditions.interest_rate);
    if (bps === undefined || bps > 100_000) {
      throw new AppError('interest_rate_invalid', 'decision.decision.conditions.interest_rate must be a percentage with at most 2 decimal places.');
    }
    interestRateBps = bps;
  }

  let tenorDays: number | null = null;
  if (present(conditions.tenor_days)) {
    const t = typeof conditions.tenor_days === 'string' ? Number(conditions.tenor_days) : conditions.tenor_days;
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > 3650) {
      throw new AppError('tenor_days_invalid', 'decision.decision.conditions.tenor_days must be a whole number of days from 1 to 3650.');
    }
    tenorDays = t;
  }

  let repaymentFrequency: string | null = null;
  if (present(conditions.repayment_frequency)) {
    const f = String(conditions.repayment_frequency).trim().toLowerCase().replace(/[-\s]/g, '');
    if (!(REPAYMENT_FREQUENCIES as readonly string[]).includes(f)) {
      throw new AppError('repayment_frequency_invalid', `decision.decision.conditions.repayment_frequency must be one of ${REPAYMENT_FREQUENCIES.join(', ')}.`);
    }
    repaymentFrequency = f;
  }

  // Audit fields come in two shapes: flat, or nested (`trust_score.score`, `breakdown.risk_band`).
  const breakdown = asObject(payload.breakdown) ?? asObject(decision.breakdown) ?? {};
  const trust = payload.trust_score ?? decision.trust_score;
  const trustValue = asObject(trust)?.score ?? trust;
  const confidence = payload.confidence ?? decision.confidence;
  const riskBand = payload.risk_band ?? decision.risk_band ?? breakdown.risk_band;
  const trustNumber = typeof trustValue === 'string' ? Number(trustValue) : trustValue;

  return {
    assessmentId: assessmentText.trim(),
    bvn,
    nin: present(nin) ? String(nin) : null,
    recommendation: normalisedRecommendation,
    approvedAmountKobo,
    interestRateBps,
    tenorDays,
    repaymentFrequency,
    confidence: present(confidence) && typeof confidence !== 'object' ? String(confidence).slice(0, 50) : null,
    riskBand: present(riskBand) && typeof riskBand !== 'object' ? String(riskBand).slice(0, 50) : null,
    trustScore: typeof trustNumber === 'number' && Number.isFinite(trustNumber) ? Math.round(trustNumber) : null,
  };
}

/** The decision as kept for audit: verbatim but for the BVN and the NIN, which are scrubbed (their keyed hashes are kept). */
function scrubbed(payload: Obj): Obj {
  const metadata = asObject(payload.metadata);
  if (!metadata) return payload;
  const { bvn: _bvn, nin: _nin, ...rest } = metadata;
  return { ...payload, metadata: rest };
}

/**
 * Ingests a partner's credit decision. The assessment id is the idempotency key: a second push of
 * it returns the stored record unchanged. A decline is recorded and goes no further.
 */
export async function pushPreapproval(db: Tx, options: PushPreapprovalOptions): Promise<PushResult> {
  const { organisation, mode, now } = options;
  const scope = { organisationId: organisation.id, mode };
  const summary = summariseDecision(options.decision);

  const pushedNinHash = summary.nin ? ninHash(options.secrets, summary.nin) : null;
  const borrowerOptions = {
    ...scope,
    bvnHash: options.secrets.hmac(BVN_HASH_PURPOSE, summary.bvn),
    details: options.borrower,
    clientReference: options.clientReference ?? null,
    ninHash: pushedNinHash,
    now,
  };
  // A replay is found by the pre-approval's own insert (the assessment id is unique per organisation and mode), not by
  // a read first: a first push, the usual case, costs the borrower's insert and the pre-approval's. A replay returns
  // the stored record and changes nothing: the borrower its insert created (a BVN first seen in a replay) is removed
  // again, and a NIN is recorded on an existing borrower only by a push that is kept.
  const borrowerInserted = (await db.executeQuery(borrowerInsert(db, borrowerOptions))).rows[0];
  const { row: borrower, missingNin } = await borrowerAfterInsert(db, borrowerOptions, borrowerInserted);
  // A BVN seen before: what the push says differently is answered, a different name refused (borrower-match.ts).
  const { match, contactPhone, conflict } = compareWithRecord(borrower, options.borrower, Boolean(borrowerInserted));
  if (conflict) throw conflict;

  const isDecline = summary.recommendation === 'decline';
  const at = now.toISOString();
  const row = {
    id: newId(),
    organisationId: organisation.id,
    mode,
    borrowerId: borrower.id,
    assessmentId: summary.assessmentId,
    clientReference: options.clientReference ?? null,
    recommendation: summary.recommendation,
    approvedAmountKobo: summary.approvedAmountKobo,
    interestRateBps: summary.interestRateBps,
    tenorDays: summary.tenorDays,
    repaymentFrequency: summary.repaymentFrequency,
    confidence: summary.confidence,
    riskBand: summary.riskBand,
    trustScore: summary.trustScore,
    status: isDecline ? 'declined' : 'received',
    expiresAt: isDecline ? null : new Date(now.getTime() + organisation.preapprovalTtlSeconds * 1000).toISOString(),
    loanId: null,
    providerOrgId: options.providerId ?? null,
    ninHash: pushedNinHash,
    legacyNin: null,
    decisionPayload: toJson(scrubbed(options.decision)),
    enrichedPayload: toJson(options.enriched ?? null),
    contactPhone,
    borrowerMatch: toJson(match),
    createdAt: at,
    updatedAt: at,
  };
  // A replay, or a concurrent push of the same assessment (which waits on the unique index), inserts nothing.
  const inserted = await insertPreapproval(db, row);
  if (Number(inserted.numAffectedRows) !== 1) {
    if (borrowerInserted) await db.deleteFrom('borrowers').where('id', '=', borrower.id).execute();
    const stored = (await findPreapprovalByAssessment(db, scope, summary.assessmentId))!;
    return { created: false, ack: toAck(stored), preapproval: stored };
  }
  if (options.providerId) {
    const provider = await db
      .selectFrom('providers')
      .select('id')
      .where('id', '=', options.providerId)
      .where('isActive', '=', true)
      .executeTakeFirst();
    if (!provider) throw new AppError('provider_not_found', 'providerId is not an active provider of GET /v1/providers.');
  }
  if (missingNin) await recordMissingNin(db, borrower.id, pushedNinHash!);
  const preapproval = toPreapproval(row);
  await enqueueEvent(db, {
    ...scope,
    event: 'preapproval.received',
    data: preapprovalReceivedPayload(preapproval),
    now,
  });
  return { created: true, ack: toAck(preapproval), preapproval };
}

const insertPreapproval = precompiled((db, row: PreapprovalsTable) =>
  db
    .insertInto('preapprovals')
    .values(row)
    .onConflict((oc) => oc.columns(['organisationId', 'mode', 'assessmentId']).doNothing()),
);

/** `preapproval.received` data: ids, the summary and the status; never the pushed payload. */
export function preapprovalReceivedPayload(p: Preapproval): Record<string, unknown> {
  return {
    preapprovalId: p.id,
    assessmentId: p.assessmentId,
    borrowerId: p.borrowerId,
    clientReference: p.clientReference,
    recommendation: p.recommendation,
    approvedAmountKobo: p.approvedAmountKobo,
    interestRateBps: p.interestRateBps,
    tenorDays: p.tenorDays,
    status: p.status,
    expiresAt: p.expiresAt,
  };
}
