import express from 'express';
import { z } from 'zod';
import { notFound } from '../../domain/errors';
import { POLICY_DOCUMENT_MAX_BYTES, policiesToRecord, policyDocumentKey } from '../../domain/ops/insurance-policies';
import { recordInsurancePolicy } from '../../domain/ops/record-insurance-policy';
import { decodeCursor, PageQuery, pageOf } from '../dashboard/keyset';
import type { OpsKit } from './kit';

/** Base64 of the largest document, with room for the policy number: the only console body above 16 KB. */
const RECORD_BODY_LIMIT = Math.ceil((POLICY_DOCUMENT_MAX_BYTES * 4) / 3) + 4 * 1024;

/**
 * Mounted before the console's 16 KB JSON parser: the policy document travels base64 in the JSON body. A change is
 * parsed only for a signed-in staff member who may record one, so nobody else can make the console read megabytes.
 */
export function insurancePolicyBodyParser(kit: OpsKit): express.RequestHandler {
  const parse = express.json({ limit: RECORD_BODY_LIMIT, strict: true });
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    kit.caller(req, 'money').then(() => parse(req, res, next), next);
  };
}

const RecordBody = z
  .object({
    policyNumber: z.string().trim().min(3).max(64),
    documentBase64: z.base64().min(1).max(RECORD_BODY_LIMIT),
  })
  .strict();

/**
 * Insurance policies bound by hand (`domain/ops/insurance-policies.ts`): the queue of pending policies, "record"
 * (the insurer's policy number and the policy PDF: at once in test mode, a four-eyes proposal in live mode, 202) and
 * the document itself, so whoever approves reads what they approve.
 */
export function opsInsurancePolicyRoutes(router: express.Router, kit: OpsKit): void {
  const { platform } = kit;

  router.get('/insurance-policies', async (req, res) => {
    await kit.caller(req, 'read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await policiesToRecord(platform.db, { limit: query.limit + 1, after: decodeCursor(query.cursor) });
    kit.page(res, 'Insurance policies to record: bound by hand, still pending.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.post('/insurance-policies/:id/record', async (req, res) => {
    const { actor } = await kit.caller(req, 'money');
    const id = kit.parse(z.uuid(), req.params.id, 'path');
    const body = kit.parse(RecordBody, req.body);
    const outcome = await recordInsurancePolicy(platform, actor, { policyId: id, policyNumber: body.policyNumber, document: Buffer.from(body.documentBase64, 'base64') });
    if (outcome.outcome === 'done') kit.ok(res, 200, 'Policy recorded: it is active.', { outcome: 'done', result: outcome.result });
    else kit.ok(res, 202, 'Proposed: a second staff member must approve the policy before it is active.', { outcome: 'proposed', proposal: outcome.proposal });
  });

  router.get('/insurance-policies/:id/document', async (req, res) => {
    await kit.caller(req, 'read');
    const id = kit.parse(z.uuid(), req.params.id, 'path');
    const body = await platform.files.get(await policyDocumentKey(platform.db, id));
    if (!body) throw notFound('policy document');
    res.status(200).set({ 'Content-Type': 'application/pdf', 'Content-Disposition': `inline; filename="policy-${id}.pdf"`, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).send(body);
  });
}
