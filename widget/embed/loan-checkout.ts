import type { CheckoutTheme } from '../theme';
import { CHECKOUT_EVENT_TYPES, domEventName, type CheckoutEvent, type CheckoutEventType } from './events';

/**
 * The one global of the script tag, `LoanCheckout`, and the same API for bundlers. Its whole public
 * surface: `mount`, `on`, `off`, `destroy` (and `version`). Nothing here throws into the host page:
 * bad calls are logged (`console.warn`/`console.error`) and reported as an `error` event where a
 * checkout is mounted. Importing this module touches no DOM (server-side rendering is safe); the
 * elements are defined on the first `mount`.
 */
export interface MountOptions {
  /** The checkout session token your backend minted (`router.createSession(loanId)` → `token`). Kept in memory only. */
  session: string;
  /** Your mounted checkout server, e.g. `https://api.shop.example/checkout`. Default: where `widget.js` was loaded from. */
  server?: string;
  /**
   * BCP 47 language tag (`en`, `pcm`, `yo`, `ha`, `ig`; `yo-NG` works too): the default language (the borrower can
   * still pick another in the checkout). Non-English texts load on demand from your checkout server.
   */
  locale?: string;
  /**
   * Your brand: `brandColor` (hex or `rgb()`), `radius` (CSS length), `fontFamily`; text on the brand colour and the
   * brand colour used as text are adjusted to stay WCAG AA. Other `--lc-*` custom properties may be given as they are
   * (`{'--lc-surface': '#fafafa'}`); a raw `--lc-primary` counts as `brandColor`. Other keys are ignored.
   */
  theme?: CheckoutTheme & Record<string, string | undefined>;
  /** Every event. */
  onEvent?: (event: CheckoutEvent) => void;
  /** The checkout completed (every step done). */
  onSuccess?: (event: CheckoutEvent<'completed'>) => void;
  /** The borrower left before the end. */
  onExit?: (event: CheckoutEvent<'exited'>) => void;
}

export type CheckoutListener<T extends CheckoutEventType = CheckoutEventType> = (event: CheckoutEvent<T>) => void;

export interface LoanCheckoutApi {
  /** Renders the checkout into `target` (an element or a CSS selector); replaces a checkout mounted before. */
  mount(target: string | Element, options: MountOptions): HTMLElement | undefined;
  /** Listens to one event type, or to all with `'*'`. */
  on<T extends CheckoutEventType>(type: T | '*', listener: CheckoutListener<T>): void;
  off<T extends CheckoutEventType>(type: T | '*', listener: CheckoutListener<T>): void;
  /** Removes the mounted checkout (no event is sent); listeners added with `on` stay. */
  destroy(): void;
  readonly version: string;
}

/** The snippet's stub: a function that queues its arguments until the script has loaded. */
export type QueuedCall = [method: string, ...args: unknown[]];

const PREFIX = '[LoanCheckout]';
export const VERSION = '1.0.0';

function report(error: unknown, what: string): void {
  console.error(`${PREFIX} ${what}`, error);
}

/**
 * @param defineElements loads the `lc-*` element definitions (the script tag has them inline; the ES module imports them lazily)
 * @param scriptUrl where the script was loaded from (the default checkout server), when known
 */
export function createLoanCheckout(defineElements: () => Promise<unknown>, scriptUrl?: string): LoanCheckoutApi {
  const listeners = new Map<CheckoutEventType | '*', Set<CheckoutListener>>();
  let mounted: { element: HTMLElement; detach(): void } | undefined;

  const call = (fn: ((event: never) => void) | undefined, event: CheckoutEvent) => {
    try {
      (fn as ((event: CheckoutEvent) => void) | undefined)?.(event);
    } catch (error) {
      report(error, `a listener for "${event.type}" threw`);
    }
  };

  function serverBase(options: MountOptions): string | undefined {
    const server = options.server ?? (scriptUrl ? scriptUrl.replace(/\/(?:widget(\.[\w.-]+)?|assets\/checkout\.[0-9a-f]{10})\.js(\?.*)?$/, '') : undefined);
    return server?.replace(/\/$/, '');
  }

  function attach(element: HTMLElement, options: MountOptions) {
    const handler = (dom: Event) => {
      const event = (dom as CustomEvent<CheckoutEvent>).detail;
      if (!event || dom.target !== element) return;
      call(options.onEvent, event);
      if (event.type === 'completed') call(options.onSuccess, event);
      if (event.type === 'exited') call(options.onExit, event);
      for (const listener of listeners.get(event.type) ?? []) call(listener, event);
      for (const listener of listeners.get('*') ?? []) call(listener, event);
    };
    for (const type of CHECKOUT_EVENT_TYPES) element.addEventListener(domEventName(type), handler);
    return () => {
      for (const type of CHECKOUT_EVENT_TYPES) element.removeEventListener(domEventName(type), handler);
    };
  }

  function render(host: Element, options: MountOptions, server: string): HTMLElement {
    api.destroy();
    const element = document.createElement('lc-checkout') as HTMLElement & { session?: string; apiBase?: string; locale?: string; theme?: CheckoutTheme };
    // Properties, not attributes: the token never shows in the DOM.
    element.session = options.session;
    element.apiBase = `${server}/api`;
    if (options.locale) element.locale = options.locale;
    const { brandColor, radius, fontFamily, ...custom } = options.theme ?? {};
    for (const [name, value] of Object.entries(custom)) {
      if (name === '--lc-primary') continue;
      if (name.startsWith('--lc-') && typeof value === 'string') element.style.setProperty(name, value);
      else console.warn(`${PREFIX} theme: "${name}" is not brandColor, radius, fontFamily or a --lc-* custom property; ignored`);
    }
    // The element computes the AA-safe colours from the brand colour.
    element.theme = { brandColor: brandColor ?? custom['--lc-primary'], radius, fontFamily };
    mounted = { element, detach: attach(element, options) };
    host.replaceChildren(element);
    void defineElements().catch((error) => report(error, 'could not load the checkout elements'));
    return element;
  }

  const api: LoanCheckoutApi = {
    version: VERSION,
    mount(target, options) {
      try {
        if (typeof document === 'undefined') {
          console.warn(`${PREFIX} mount() needs a browser: call it on the client, not during server-side rendering`);
          return undefined;
        }
        if (!options || typeof options.session !== 'string' || !/^cs_(test|live)_\w+$/.test(options.session)) {
          console.error(`${PREFIX} mount(): options.session must be the checkout session token your server minted (cs_test_… or cs_live_…)`);
          return undefined;
        }
        const server = serverBase(options);
        if (!server) {
          console.error(`${PREFIX} mount(): pass options.server, the URL of your mounted checkout server`);
          return undefined;
        }
        const host = typeof target === 'string' ? document.querySelector(target) : target;
        if (host) return render(host, options, server);
        if (typeof target === 'string' && document.readyState === 'loading') {
          // The snippet may run before the target is parsed: try again once the document is.
          document.addEventListener('DOMContentLoaded', () => api.mount(target, options), { once: true });
          return undefined;
        }
        console.error(`${PREFIX} mount(): no element matches ${String(target)}`);
        return undefined;
      } catch (error) {
        report(error, 'mount() failed');
        return undefined;
      }
    },
    on(type, listener) {
      if (typeof listener !== 'function' || (type !== '*' && !CHECKOUT_EVENT_TYPES.includes(type))) {
        console.warn(`${PREFIX} on(): unknown event type "${String(type)}" or no listener; known types: ${CHECKOUT_EVENT_TYPES.join(', ')}`);
        return;
      }
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)!.add(listener as CheckoutListener);
    },
    off(type, listener) {
      listeners.get(type)?.delete(listener as CheckoutListener);
    },
    destroy() {
      if (!mounted) return;
      mounted.detach();
      mounted.element.remove();
      mounted = undefined;
    },
  };
  return api;
}

/** `LoanCheckout('mount', …)` as the snippet calls it, and `LoanCheckout.mount(…)`: one function with the API's methods. */
export type LoanCheckoutGlobal = LoanCheckoutApi & ((method: string, ...args: unknown[]) => unknown);

/** Runs one queued or function-style call; unknown methods are logged, never thrown. */
export function invoke(api: LoanCheckoutApi, method: unknown, args: unknown[]): unknown {
  const fn = typeof method === 'string' && ['mount', 'on', 'off', 'destroy'].includes(method) ? (api[method as 'mount'] as (...a: unknown[]) => unknown) : undefined;
  if (!fn) {
    console.warn(`${PREFIX} unknown call "${String(method)}": known calls are mount, on, off, destroy`);
    return undefined;
  }
  try {
    return fn.apply(api, args);
  } catch (error) {
    report(error, `${method}() failed`);
    return undefined;
  }
}

/**
 * Installs `window.LoanCheckout` and replays what the snippet queued (`window.LoanCheckout.q`).
 * A second copy of the script keeps the first one's global.
 */
export function installGlobal(api: LoanCheckoutApi): LoanCheckoutGlobal {
  const w = window as unknown as { LoanCheckout?: { q?: QueuedCall[]; version?: string } & Partial<LoanCheckoutGlobal> };
  const existing = w.LoanCheckout;
  if (existing && typeof existing.mount === 'function' && existing.version) return existing as LoanCheckoutGlobal;
  const global = Object.assign((method: string, ...args: unknown[]) => invoke(api, method, args), {
    version: api.version,
    mount: api.mount,
    on: api.on,
    off: api.off,
    destroy: api.destroy,
  }) as LoanCheckoutGlobal;
  w.LoanCheckout = global;
  for (const queued of existing?.q ?? []) {
    const [method, ...args] = Array.from(queued as ArrayLike<unknown>);
    invoke(api, method, args);
  }
  return global;
}
