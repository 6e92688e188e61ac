import type { Tx } from '../../db/database';
import type { Mode } from '../scope';
import { toJson } from '../../db/database';
import { writeBehind } from '../../db/precompiled';
import { newOrderedId } from '../ids';
import type { EventName } from './catalogue';
import { markOutboxWritten } from './outbox-signal';

export interface EnqueueEventOptions {
  organisationId: string;
  mode: Mode;
  /** A name from the catalogue (`catalogue.ts`), e.g. `loan.approved`. */
  event: EventName;
  /** The event's data object, built by an explicit mapper; never a serialised row. */
  data: Record<string, unknown>;
  now: Date;
}

/**
 * Records an event in the transactional outbox. It takes a transaction, never the root handle, so the
 * event commits with the state change it reports or not at all (open one with `inUnitOfWork`, which
 * rings the outbox once it commits). The webhook dispatcher fans it out to endpoints afterwards.
 */
export async function enqueueEvent(tx: Tx, options: EnqueueEventOptions): Promise<{ id: string }> {
  const id = newOrderedId();
  await insertEvent(tx, {
    id,
    organisationId: options.organisationId,
    mode: options.mode,
    name: options.event,
    payload: toJson(options.data)!,
    createdAt: options.now.toISOString(),
  });
  markOutboxWritten(tx);
  return { id };
}

/** The hottest insert there is (every state change writes one), compiled once. */
const insertEvent = writeBehind((db, row: { id: string; organisationId: string; mode: Mode; name: EventName; payload: string; createdAt: string }) =>
  db.insertInto('events').values(row),
);
