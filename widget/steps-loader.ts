import { ON_DEMAND_TAGS, type OnDemandFile } from './steps-shared';

/**
 * Defines the on-demand elements (`ON_DEMAND_FILES` in `steps-shared.ts`: the rarer steps, the mandate
 * step) when the checkout first needs one of them. In the ES module build they are bundled in and
 * already defined; the script-tag build registers a loader (`embed/script.ts`) that adds the file's
 * `<script>` once.
 */
type Loader = (apiBase: string, file: OnDemandFile) => Promise<void>;
let loader: Loader | undefined;
const loading = new Map<OnDemandFile, Promise<void>>();

export function setStepsLoader(load: Loader): void {
  loader = load;
}

/**
 * Undefined when `tag` can render now; otherwise the load of its file in flight (one per file for the
 * page; a failed load is tried again on the next call, e.g. the borrower's "Try again").
 */
export function whenStepDefined(tag: string, apiBase: string): Promise<void> | undefined {
  const file = ON_DEMAND_TAGS.get(tag);
  if (!file || customElements.get(tag) || !loader) return undefined;
  let load = loading.get(file);
  if (!load) {
    load = loader(apiBase, file).catch((error: unknown) => {
      loading.delete(file);
      throw error;
    });
    loading.set(file, load);
  }
  return load;
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

/** Loads the rarer steps' file (once) when this build did not bundle it in: the script-tag bundle. */
export function loadOnDemand(apiBase: string): Promise<void> {
  return whenStepDefined('lc-passkey', apiBase) ?? Promise.resolve();
}
