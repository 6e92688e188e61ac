/** Reading one page of a list answer, whichever of the platform's list shapes it has. */

type ArrayIn<T> = T extends readonly (infer I)[] ? I : T extends object ? { [K in keyof T]: T[K] extends readonly (infer I)[] ? I : never }[keyof T] : never;

/**
 * The item type of a list answer: the envelope's `data` when it is an array, else the array inside `data`
 * (`{providers, pagination}`), else the array in a bare body (`{appointments, page, totalPages}`).
 */
export type PageItem<Body> = Body extends { data: infer D } ? ArrayIn<D> : ArrayIn<Body>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function firstArray(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return [];
  return (Object.values(value).find(Array.isArray) as unknown[] | undefined) ?? [];
}

/** Whether another page follows: the first of `meta.hasNext`, `pagination.hasNext`, `hasNext`, `page < totalPages`; none means one page. */
function nextPageFollows(sources: unknown[], requestedPage: number): boolean {
  for (const source of sources) {
    if (!isObject(source)) continue;
    if (typeof source.hasNext === 'boolean') return source.hasNext;
    if (typeof source.totalPages === 'number') return (typeof source.page === 'number' ? source.page : requestedPage) < source.totalPages;
  }
  return false;
}

export function pageOf(body: unknown, requestedPage: number): { items: unknown[]; hasNext: boolean } {
  if (!isObject(body)) return { items: firstArray(body), hasNext: false };
  const payload = 'data' in body ? body.data : body;
  const items = firstArray(payload);
  const pagination = isObject(payload) ? payload.pagination : undefined;
  return { items, hasNext: nextPageFollows([body.meta, pagination, payload], requestedPage) };
}
