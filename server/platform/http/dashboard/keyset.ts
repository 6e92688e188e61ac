import { z } from 'zod';
import { AppError } from '../../domain/errors';

/**
 * Keyset pagination for every dashboard list, so lists stay fast at 100,000+ rows. A page is ordered by
 * `(at desc, id desc)`; the cursor is the last row's pair, base64url-encoded JSON, opaque to the browser. The next
 * page's query is `where (at < cursor.at) or (at = cursor.at and id < cursor.id)`, which an index on
 * `(organisation_id, mode, at, id)` answers without counting or skipping rows.
 */
export interface Cursor {
  at: string;
  id: string;
}

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 100;

/** `?limit=&cursor=`: both optional. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
  cursor: z.string().max(400).optional(),
});

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

/** 400 `invalid_request` for anything that is not a cursor this server wrote. */
export function decodeCursor(value: string | undefined): Cursor | undefined {
  if (value === undefined || value === '') return undefined;
  try {
    const parsed = z.tuple([z.string().min(1).max(64), z.string().min(1).max(64)]).parse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    return { at: parsed[0], id: parsed[1] };
  } catch {
    throw new AppError('invalid_request', 'query.cursor: not a cursor from a previous page');
  }
}

/**
 * A page of `limit` rows from a query that fetched `limit + 1` (the extra one only says there is a next page).
 * `nextCursor` is null on the last page.
 */
export function pageOf<T>(rows: T[], limit: number, keyOf: (row: T) => Cursor): { data: T[]; nextCursor: string | null } {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return { data, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}
