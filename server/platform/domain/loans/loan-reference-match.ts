import { sql } from 'kysely';
import { loanIdSuffix } from '../../../shared/loan-reference';

/** The id's last ten characters (`substr` means the same in both dialects), the part of a loan id its short reference names. */
const idSuffix = (column: string) => sql<string>`substr(${sql.ref(column)}, 27)`;

/**
 * A condition for `column` being the id the short loan reference `text` was made from (`loanReference`, e.g.
 * `1Q4Z-Z9YW`; read by `loanIdSuffix`: any case, dash and spaces optional), or undefined when `text` is not such a
 * reference. The reference is the id's last forty bits, random in a UUIDv7, so it names a suffix, never a prefix or a
 * range: callers keep their organisation and mode conditions, which bound the rows read. Shared by the dashboard's
 * loans search and `GET /v1/loans?reference=`.
 */
export function loanIdSuffixMatches(column: string, text: string) {
  const suffix = loanIdSuffix(text);
  return suffix === null ? undefined : sql<boolean>`${idSuffix(column)} = ${suffix}`;
}
