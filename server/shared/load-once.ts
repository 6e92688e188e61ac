/**
 * A load started on first use (a dependency's `import()`, a client built from it), shared while
 * it runs and once it is done. A failed load is forgotten, so the next call tries again instead of
 * failing until the process restarts.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
