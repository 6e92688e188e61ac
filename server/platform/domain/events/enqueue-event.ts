import type { Executor } from '../../db/database';
import type { Mode } from '../scope';
import { toJson } from '../../db/database';
import { precompiled } from '../../db/precompiled';
import { newOrderedId } from '../ids';

export interface EnqueueEventOptions {
  organisationId: string;
  mode: Mode;
  /** Exact event name from the spec's event table, e.g. `loan.approved`. */
  event: string;
  /** The event's data object, built by an explicit mapper; never a serialised row. */
  data: Record<string, unknown>;
  now: Date;
}

/**
 * Records an event in the transactional outbox. Call it with the same transaction as the state
 * change it reports: both commit or neither does. The webhook dispatcher fans it out
 * to endpoints afterwards.
 */
export async function enqueueEvent(tx: Executor, options: EnqueueEventOptions): Promise<{ id: string }> {
  const id = newOrderedId();
  await insertEvent(tx, {
    id,
    organisationId: options.organisationId,
    mode: options.mode,
    name: options.event,
    payload: toJson(options.data)!,
    createdAt: options.now.toISOString(),
  });
  return { id };
}

/** The hottest insert there is (every state change writes one), compiled once. */
const insertEvent = precompiled((db, row: { id: string; organisationId: string; mode: Mode; name: string; payload: string; createdAt: string }) =>
  db.insertInto('events').values(row),
);
