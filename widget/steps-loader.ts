/**
 * Defines the on-demand steps (`widget/steps.ts`) when the checkout first needs one of them. In the
 * ES module build they are bundled in and already defined; the script-tag build registers a loader
 * (`embed/script.ts`) that adds the steps file's `<script>` once.
 */
export const ON_DEMAND_STEPS: ReadonlySet<string> = new Set(['lc-kyc', 'lc-guarantors', 'lc-catalog', 'lc-passkey', 'lc-identity', 'lc-decision', 'lc-ended']);

type Loader = (apiBase: string) => Promise<void>;
let loader: Loader | undefined;
let loading: Promise<void> | undefined;

export function setStepsLoader(load: Loader): void {
  loader = load;
}

/**
 * Undefined when `tag` can render now; otherwise the load in flight (one for the page; a failed
 * load is tried again on the next call, e.g. the borrower's "Try again").
 */
export function whenStepDefined(tag: string, apiBase: string): Promise<void> | undefined {
  if (!ON_DEMAND_STEPS.has(tag) || customElements.get(tag) || !loader) return undefined;
  loading ??= loader(apiBase).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** A classic script (works in every webview and under the hosted page's `script-src 'self'`). */
export function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      script.remove();
      reject(new Error(`could not load ${src}`));
    };
    document.head.append(script);
  });
}

/** Loads the on-demand steps file (once) when this build did not bundle it in: the script-tag bundle. */
export function loadOnDemand(apiBase: string): Promise<void> {
  return whenStepDefined('lc-passkey', apiBase) ?? Promise.resolve();
}
