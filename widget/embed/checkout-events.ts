import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CheckoutApi, CheckoutState, EmbeddingSettings } from '../checkout-api';
import { emit } from '../step-events';
import {
  domEventName,
  returnUrlWith,
  type CheckoutEvent,
  type CheckoutEventData,
  type CheckoutEventType,
  type CheckoutMessage,
  type CheckoutPosition,
  type HostCommand,
  type ReturnOutcome,
} from './events';

/** The native sides of the webview bridge (see docs/embedding.md): each receives the same JSON string. */
interface BridgeWindow {
  ReactNativeWebView?: { postMessage(message: string): void };
  webkit?: { messageHandlers?: { loanCheckout?: { postMessage(message: unknown): void } } };
  LoanCheckoutAndroid?: { postMessage(message: string): void };
}

export interface EventsHost extends ReactiveControllerHost, HTMLElement {
  readonly api: CheckoutApi;
  /** Set when embedded (the token handed to `LoanCheckout.mount`); unset on the hosted page (cookie). */
  session?: string;
  /** The latest state read (its session and loan ids go into every event). */
  readonly checkoutState: CheckoutState | undefined;
  /** Reads the state again (a host's `refresh` command). */
  reload(): void;
}

/** Child events of the steps and the public events they become (the children's own events stop at `<lc-checkout>`). */
const FROM_CHILDREN = ['lc-otp-verified', 'lc-kyc-submitted', 'lc-bank-captured', 'lc-offer-signed', 'lc-offer-declined', 'lc-mandate-redirect', 'lc-mandate-active'] as const;

const OUTCOMES: Partial<Record<CheckoutEventType, ReturnOutcome>> = {
  completed: 'completed',
  offer_declined: 'declined',
  exited: 'exited',
  session_expired: 'expired',
};

const bridgeWindow = () => window as unknown as BridgeWindow;

/** True inside a partner app's webview that installed one of the bridges. */
export function hasWebviewBridge(): boolean {
  const w = bridgeWindow();
  return Boolean(w.ReactNativeWebView || w.webkit?.messageHandlers?.loanCheckout || w.LoanCheckoutAndroid);
}

/**
 * Turns what happens in the checkout into the public event set and delivers each event: a DOM
 * event on the element, `postMessage` to the parent and opener windows at allowed origins only,
 * the webview bridges, and — on the hosted page, for an outcome — the partner's return URL.
 * Incoming messages are obeyed only from allowed origins.
 */
export class CheckoutEvents implements ReactiveController {
  private position: CheckoutPosition | null = null;
  private ended = false;
  private exited = false;
  private settings: EmbeddingSettings | undefined;
  private settingsRequested = false;
  private settingsSettled!: () => void;
  /** Resolves once the settings are read (or could not be): postMessage and the redirect wait for it. */
  private readonly settingsLoaded = new Promise<void>((resolve) => (this.settingsSettled = resolve));
  private readonly onChild = (event: Event) => this.translate(event);
  private readonly onMessage = (event: MessageEvent) => this.receive(event);

  constructor(private readonly host: EventsHost) {
    host.addController(this);
  }

  /** Embedded mode: the element holds the token itself and no return-URL redirect happens. */
  get embedded(): boolean {
    return Boolean(this.host.session);
  }

  /** The rail's page opens in a new tab when leaving this page would lose the embedding (or the webview's app opens it outside). */
  get railInNewTab(): boolean {
    return this.embedded || hasWebviewBridge();
  }

  /** Whether the borrower is offered a way out: embedded (the partner's `onExit`), or hosted with a return URL. */
  get canExit(): boolean {
    return !this.ended && (this.embedded || Boolean(this.settings?.returnUrl));
  }

  hostConnected(): void {
    for (const name of FROM_CHILDREN) this.host.addEventListener(name, this.onChild);
    window.addEventListener('message', this.onMessage);
  }

  hostDisconnected(): void {
    for (const name of FROM_CHILDREN) this.host.removeEventListener(name, this.onChild);
    window.removeEventListener('message', this.onMessage);
  }

  /**
   * Where events may go (the allowed origins, the return URL). Read after the first state, so it does
   * not compete with the first screen; events emitted before then wait for it. Without settings
   * (unreadable, or `skip`), only the page's own origin, DOM events and the webview bridges remain.
   */
  loadSettings(skip = false): void {
    if (this.settingsRequested) return;
    this.settingsRequested = true;
    if (skip) return this.settingsSettled();
    this.host.api.settings().then(
      (settings) => {
        this.settings = settings;
        this.host.requestUpdate();
      },
      () => undefined,
    ).finally(() => this.settingsSettled());
  }

  /** A new screen is shown: the first one is `ready`, later ones `step_changed`; reaching the end is `completed`. */
  stepChanged(step: CheckoutPosition): void {
    const previousStep = this.position;
    this.position = step;
    if (previousStep === null) this.emit('ready', { step });
    else this.emit('step_changed', { step, previousStep });
    if (step === 'complete') this.emit('completed', {});
  }

  sessionEnded(reason: 'expired' | 'revoked' | 'missing'): void {
    this.emit('session_expired', { reason });
  }

  failed(code: string, status: number): void {
    this.emit('error', { code, status });
  }

  /** The borrower or the host left: the element shows that it closed, and nothing more happens. */
  exit(by: 'borrower' | 'host'): void {
    if (this.ended) return;
    this.exited = true;
    this.emit('exited', { step: this.position, by });
    this.host.requestUpdate();
  }

  get hasExited(): boolean {
    return this.exited;
  }

  private translate(event: Event): void {
    if (event.target === this.host) return;
    event.stopPropagation();
    const detail = (event as CustomEvent).detail as Record<string, unknown> | undefined;
    const state = this.host.checkoutState;
    switch (event.type) {
      case 'lc-otp-verified':
        return this.emit('otp_verified', {});
      case 'lc-kyc-submitted':
        return this.emit('kyc_submitted', { outcome: detail?.outcome as CheckoutEventData['kyc_submitted']['outcome'] });
      case 'lc-bank-captured':
        return this.emit('bank_captured', {});
      case 'lc-offer-signed':
        return this.emit('offer_signed', { documentReference: state?.offer?.documentReference ?? '' });
      case 'lc-offer-declined':
        return this.emit('offer_declined', { documentReference: state?.offer?.documentReference ?? '' });
      case 'lc-mandate-redirect':
        return this.emit('mandate_redirect', { mandateId: String(detail?.mandateId ?? ''), authorizationUrl: String(detail?.authorizationUrl ?? '') });
      case 'lc-mandate-active':
        return this.emit('mandate_active', { mandateId: String(detail?.mandateId ?? state?.mandate?.id ?? '') });
    }
  }

  private emit<T extends CheckoutEventType>(type: T, data: CheckoutEventData[T]): void {
    const session = this.host.checkoutState?.session;
    const event = { type, version: 1, sessionId: session?.id ?? null, loanId: session?.loanId ?? null, ...data } as CheckoutEvent;
    const outcome = OUTCOMES[type];
    if (outcome) this.ended = true;
    emit(this.host, domEventName(type), event);
    const message: CheckoutMessage = { source: 'loan-checkout', event };
    this.toWebview(message);
    // postMessage and the redirect wait for the settings (the allowed origins, the return URL).
    void this.settingsLoaded.then(() => {
      this.toWindows(message);
      if (outcome && !this.embedded && this.settings?.returnUrl && !(type === 'exited' && data && (data as { by?: string }).by === 'host')) {
        window.location.assign(returnUrlWith(this.settings.returnUrl, outcome, { loanId: event.loanId, sessionId: event.sessionId }));
      }
    });
  }

  private allowedOrigins(): Set<string> {
    // The checkout's own origin is always trusted (same origin, same trust); the rest come from the settings.
    return new Set([window.location.origin, ...(this.settings?.allowedOrigins ?? [])]);
  }

  /** To the parent (when framed) and the opener (when opened), only ever at an allowed origin. */
  private toWindows(message: CheckoutMessage): void {
    const allowed = [...this.allowedOrigins()];
    const targets: Array<[Window, string[]]> = [];
    if (window.parent !== window) {
      // Chromium and WebKit say who the parent is; elsewhere try each allowed origin (the browser delivers only to the one that matches).
      const parentOrigin = window.location.ancestorOrigins?.[0];
      targets.push([window.parent, parentOrigin ? allowed.filter((o) => o === parentOrigin) : allowed]);
    }
    if (window.opener && window.opener !== window) targets.push([window.opener as Window, allowed]);
    for (const [target, origins] of targets) {
      for (const origin of origins) {
        try {
          target.postMessage(message, origin);
        } catch {
          /* a closed or cross-origin-isolated window: nothing to deliver to */
        }
      }
    }
  }

  private toWebview(message: CheckoutMessage): void {
    const w = bridgeWindow();
    const json = JSON.stringify(message);
    const deliveries = [
      () => w.ReactNativeWebView?.postMessage(json),
      () => w.webkit?.messageHandlers?.loanCheckout?.postMessage(json),
      () => w.LoanCheckoutAndroid?.postMessage(json),
    ];
    for (const deliver of deliveries) {
      try {
        deliver();
      } catch (error) {
        console.warn('[LoanCheckout] a webview bridge refused an event', error);
      }
    }
  }

  private receive(event: MessageEvent): void {
    if (!this.allowedOrigins().has(event.origin)) return;
    const data = event.data as Partial<HostCommand> | undefined;
    if (!data || typeof data !== 'object' || data.source !== 'loan-checkout-host') return;
    if (data.command === 'exit') this.exit('host');
    else if (data.command === 'refresh') this.host.reload();
  }
}
