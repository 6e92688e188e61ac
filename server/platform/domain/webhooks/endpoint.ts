import crypto from 'node:crypto';
import type { Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/database';
import type { Mode, WebhookEndpointsTable } from '../../db/schema';
import { AppError } from '../errors';
import { newId } from '../ids';
import type { Secrets } from '../secrets';
import { endWaitingDeliveries } from './record-attempt';
import { findOwned } from '../find-owned';
import { checkTargetHost, type AddressPolicy } from './webhook-target';
import type { Scope } from '../scope';

const SEAL_PURPOSE = 'webhook-signing-secret';
/** How long the previous secret keeps signing after a rotation (both signatures are sent). */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export interface WebhookEndpoint {
  id: string;
  organisationId: string;
  url: string;
  description: string | null;
  events: string[] | null;
  mode: Mode;
  /** `lending` or `sdk` (patient-financing events, the spec's envelope, signed with the API secret key). */
  api: 'lending' | 'sdk';
  status: 'active' | 'disabled';
  consecutiveFails: number;
  lastFailureAt: string | null;
  lastSuccessAt: string | null;
  createdAt: string;
  updatedAt: string;
}


export function toEndpoint(row: WebhookEndpointsTable): WebhookEndpoint {
  return {
    id: row.id,
    organisationId: row.organisationId,
    url: row.url,
    description: row.description,
    events: fromJson<string[]>(row.events),
    mode: row.mode,
    api: row.api === 'sdk' ? 'sdk' : 'lending',
    status: row.status as WebhookEndpoint['status'],
    consecutiveFails: row.consecutiveFails,
    lastFailureAt: row.lastFailureAt,
    lastSuccessAt: row.lastSuccessAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const newSecret = () => `whsec_${crypto.randomBytes(32).toString('base64url')}`;

/**
 * https only, except plain http to a loopback host for a test-mode endpoint (a developer's
 * machine). Live endpoints must be https, but in a rehearsal, where every endpoint is a loopback receiver. An IP-literal host must be a public address and a host
 * name must not be a special-use or internal one (loopback and `localhost` only under
 * `WEBHOOK_ALLOW_LOOPBACK`), in every mode (`checkTargetHost`).
 */
export function checkEndpointUrl(url: string, mode: Mode, policy: AddressPolicy): void {
  const parsed = new URL(url);
  checkTargetHost(parsed, policy);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname) || parsed.hostname.startsWith('127.');
  // A rehearsal keeps everything on this machine, its webhooks included.
  if (policy.rehearsal && !loopback) throw new AppError('webhook_url_not_allowed', `url: ${parsed.hostname} is not this machine; a rehearsal sends webhooks only to loopback receivers`);
  if (parsed.protocol === 'https:') return;
  if (parsed.protocol === 'http:' && (mode === 'test' || policy.rehearsal) && loopback) return;
  throw new AppError('invalid_request', 'url: must be https (plain http is allowed only for a loopback host on a test-mode endpoint)');
}

/** Endpoints belong to the organisation and a mode: a key sees and manages those of its own mode only. */
export async function getEndpointRow(db: Executor, scope: Scope, id: string): Promise<WebhookEndpointsTable> {
  const row = await findOwned(db, 'webhookEndpoints', scope, id, 'webhook endpoint');
  return row;
}

export async function createEndpoint(
  db: Executor,
  secrets: Secrets,
  scope: Scope,
  input: { url: string; description?: string | null; events?: string[] | null; mode?: Mode; api?: 'lending' | 'sdk' },
  now: Date,
  policy: AddressPolicy,
): Promise<{ endpoint: WebhookEndpoint; signingSecret: string }> {
  const mode = input.mode ?? scope.mode;
  if (mode !== scope.mode) {
    throw new AppError('invalid_request', `mode: a ${scope.mode} key registers ${scope.mode}-mode endpoints; use a ${mode} key for ${mode} events`);
  }
  const organisationId = scope.organisationId;
  checkEndpointUrl(input.url, mode, policy);
  const signingSecret = newSecret();
  const at = now.toISOString();
  const row: WebhookEndpointsTable = {
    id: newId(),
    organisationId,
    mode,
    url: input.url,
    description: input.description ?? null,
    events: toJson(input.events && input.events.length > 0 ? [...new Set(input.events)] : null),
    status: 'active',
    consecutiveFails: 0,
    lastFailureAt: null,
    lastSuccessAt: null,
    secretSealed: secrets.encrypt(SEAL_PURPOSE, signingSecret),
    previousSecretSealed: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    api: input.api ?? 'lending',
    createdAt: at,
    updatedAt: at,
  };
  await db.insertInto('webhookEndpoints').values(row).execute();
  return { endpoint: toEndpoint(row), signingSecret };
}

export async function listEndpoints(db: Executor, scope: Scope): Promise<WebhookEndpoint[]> {
  const rows = await db
    .selectFrom('webhookEndpoints')
    .selectAll()
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return rows.map(toEndpoint);
}

export async function updateEndpoint(
  db: Executor,
  scope: Scope,
  id: string,
  changes: { url?: string; description?: string | null; events?: string[] | null; status?: 'active' | 'disabled' },
  now: Date,
  policy: AddressPolicy,
): Promise<WebhookEndpoint> {
  const row = await getEndpointRow(db, scope, id);
  if (changes.url) checkEndpointUrl(changes.url, row.mode, policy);
  const set: Partial<WebhookEndpointsTable> = { updatedAt: now.toISOString() };
  if (changes.url !== undefined) set.url = changes.url;
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.events !== undefined) set.events = toJson(changes.events && changes.events.length > 0 ? [...new Set(changes.events)] : null);
  if (changes.status !== undefined) {
    set.status = changes.status;
    // Re-enabling starts the failure count afresh.
    if (changes.status === 'active') {
      set.consecutiveFails = 0;
      set.failingSince = null;
    }
  }
  await db.updateTable('webhookEndpoints').set(set).where('id', '=', id).execute();
  // A disabled endpoint is sent nothing: what was waiting ends now (redeliver it after re-enabling).
  if (changes.status === 'disabled' && row.status !== 'disabled') await endWaitingDeliveries(db, id, 'endpoint disabled by the organisation', now);
  return toEndpoint({ ...row, ...set });
}

/** Deletes the endpoint; its delivery log stays (with `endpointId` null), and nothing waiting is sent. */
export async function deleteEndpoint(db: Executor, scope: Scope, id: string, now: Date): Promise<WebhookEndpoint> {
  const row = await getEndpointRow(db, scope, id);
  await endWaitingDeliveries(db, id, 'endpoint deleted', now);
  await db.updateTable('webhookDeliveries').set({ endpointId: null }).where('endpointId', '=', id).execute();
  await db.deleteFrom('webhookEndpoints').where('id', '=', id).execute();
  return toEndpoint(row);
}

/** New secret, shown once; the old one keeps signing (alongside) for 24 hours. */
export async function rotateSecret(db: Executor, secrets: Secrets, scope: Scope, id: string, now: Date) {
  const row = await getEndpointRow(db, scope, id);
  const signingSecret = newSecret();
  const set = {
    secretSealed: secrets.encrypt(SEAL_PURPOSE, signingSecret),
    previousSecretSealed: row.secretSealed,
    previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
    updatedAt: now.toISOString(),
  };
  await db.updateTable('webhookEndpoints').set(set).where('id', '=', id).execute();
  return { endpoint: toEndpoint({ ...row, ...set }), signingSecret, previousSecretExpiresAt: set.previousSecretExpiresAt };
}

/** The secrets that sign a delivery now: the current one, and the previous one during the overlap. */
export function signingSecrets(secrets: Secrets, row: WebhookEndpointsTable, now: Date): string[] {
  const current = secrets.decrypt(SEAL_PURPOSE, row.secretSealed);
  const previous =
    row.previousSecretSealed && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now.toISOString()
      ? [secrets.decrypt(SEAL_PURPOSE, row.previousSecretSealed)]
      : [];
  return [current, ...previous];
}
