import { z } from 'zod';
import { generateApiKey, listApiKeys, revokeOwnedApiKey, rollApiKey, ROLL_OVERLAPS, type RollOverlap } from '../../domain/api-keys/manage-keys';
import type { DashboardArea, DashboardCaller } from './kit';
import { PageQuery, decodeCursor, pageOf } from './keyset';
import { API_SCOPES, type ApiScope } from '../../../shared/api-key-scopes';

const KeyId = z.string().min(1).max(64);
const RollBody = z.object({ overlap: z.enum(Object.keys(ROLL_OVERLAPS) as [RollOverlap, ...RollOverlap[]]) }).strict();
/** Without `scopes` (or `null`): a full-access key. A list: a restricted key (`loans:read`, `webhooks:write`, …). */
const GenerateBody = z
  .object({ scopes: z.array(z.enum(API_SCOPES as [ApiScope, ...ApiScope[]])).min(1, 'choose at least one scope, or leave scopes out for full access').max(API_SCOPES.length).nullable().optional() })
  .strict();

const actorOf = (caller: DashboardCaller) => ({
  userId: caller.session.userId,
  organisationId: caller.session.organisationId,
  mode: caller.mode,
  role: caller.session.role,
  origin: caller.origin,
});

/**
 * API keys: list, generate, roll with overlap, revoke — the organisation's keys of the caller's mode only. A secret
 * key appears in exactly one answer (generate or roll) with `Cache-Control: no-store`, and never again. A key is
 * full access or restricted to scopes, and a member generates or rolls only keys whose scopes their role may grant.
 */
export const keysRoutes: DashboardArea = (router, kit) => {
  const { platform } = kit;

  router.get('/keys', async (req, res) => {
    const caller = await kit.caller(req, 'keys.read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await listApiKeys(platform.db, {
      organisationId: caller.session.organisationId,
      mode: caller.mode,
      now: platform.clock.now(),
      limit: query.limit + 1,
      after: decodeCursor(query.cursor),
    });
    kit.page(res, 'API keys.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.post('/keys', async (req, res) => {
    const caller = await kit.caller(req, 'keys.manage');
    const body = kit.parse(GenerateBody, req.body);
    const issued = await generateApiKey({ db: platform.db, secrets: platform.secrets, now: platform.clock.now() }, actorOf(caller), { scopes: body.scopes });
    res.set('cache-control', 'no-store');
    kit.ok(res, 201, 'Key pair created: copy the secret key now, it will not be shown again.', issued);
  });

  router.post('/keys/:id/roll', async (req, res) => {
    const caller = await kit.caller(req, 'keys.manage');
    const id = kit.parse(KeyId, req.params.id, 'query');
    const body = kit.parse(RollBody, req.body);
    const rolled = await rollApiKey({ db: platform.db, secrets: platform.secrets, now: platform.clock.now() }, actorOf(caller), { keyId: id, overlap: body.overlap });
    platform.authenticator.invalidate();
    res.set('cache-control', 'no-store');
    kit.ok(res, 201, 'Key rolled: copy the new secret key now, it will not be shown again.', rolled);
  });

  router.post('/keys/:id/revoke', async (req, res) => {
    const caller = await kit.caller(req, 'keys.manage');
    const id = kit.parse(KeyId, req.params.id, 'query');
    kit.parse(z.object({}).strict(), req.body);
    const revoked = await revokeOwnedApiKey({ db: platform.db, now: platform.clock.now() }, actorOf(caller), id);
    platform.authenticator.invalidate();
    kit.ok(res, 200, 'Key revoked: every server refuses it within a second.', revoked);
  });
};
