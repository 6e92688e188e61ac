import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Who is in a meeting room, across processes, so a meeting needs no sticky routing
 * (`integrations/room-bus/postgres.ts`): one row per participant
 * and room, refreshed by its process's heartbeats, gone after `expires_at`. On PostgreSQL the table is UNLOGGED: the
 * rows are short-lived and rebuilt by the next heartbeats, so they need no WAL (and are emptied by a crash of the
 * server, which is right: nobody is connected then). SQLite (one process, the in-process bus) gets the same table
 * unused, so both databases have one schema.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const unlogged = t.timestamp === 'timestamptz' ? sql`unlogged` : sql``;
  await sql`create ${unlogged} table meeting_presence (
    room text not null,
    client_id text not null,
    connection text not null,
    name text not null,
    role text not null,
    expires_at ${sql.raw(t.timestamp)} not null,
    primary key (room, client_id)
  )`.execute(db);
}
