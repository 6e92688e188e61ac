import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildWidgetCopy } from '../support/widget-build';
import { CHECKOUT_EVENT_TYPES, domEventName, returnUrlWith } from '../../widget/embed/events';
import { createLoanCheckout, installGlobal, invoke } from '../../widget/embed/loan-checkout';
import { enSteps } from '../../widget/i18n/en-steps';
import { enMandate } from '../../widget/i18n/en-mandate';
import { enTestHints } from '../../widget/i18n/en-test-hints';

/** The script-tag bundle's budget: Lit and the elements of the way to the first screens, gzipped (what every borrower downloads before the first step). */
const BUDGET_BYTES = 29 * 1024;
/** The mandate step's on-demand file (lc-mandate and its English texts), gzipped: fetched ahead while the offer or the bank step is shown. */
const MANDATE_BUDGET_BYTES = 4 * 1024;
/** The on-demand steps file (KYC, guarantors, catalog, passkey offer, financing identity and decision, the ended-link page), gzipped. */
const STEPS_BUDGET_BYTES = 10 * 1024;

let widget: Awaited<ReturnType<typeof buildWidgetCopy>>;

beforeAll(async () => {
  widget = await buildWidgetCopy('unit');
}, 120_000);
afterAll(() => widget?.remove());

describe('the built widget', () => {
  it(`the script-tag bundle (IIFE, Lit and the common path's elements) is at most ${BUDGET_BYTES / 1024} KB gzipped; the rarer steps are a separate file within ${STEPS_BUDGET_BYTES / 1024} KB, the mandate step another within ${MANDATE_BUDGET_BYTES / 1024} KB`, () => {
    const bundle = fs.readFileSync(widget.scriptFile);
    // Measured at gzip's default level, as a server or CDN compresses it (level 9 would flatter it by tens of bytes).
    const gzipped = zlib.gzipSync(bundle).length;
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
    const text = bundle.toString('utf8');
    const defines = (code: string, tag: string) => new RegExp(`customElements\\.define\\([\`"']${tag}[\`"']`).test(code);
    for (const tag of ['lc-checkout', 'lc-otp', 'lc-offer', 'lc-bank']) expect(defines(text, tag), tag).toBe(true);
    // An IIFE: it assigns no global of its own besides LoanCheckout, and has no import/export.
    expect(text.startsWith('(function(')).toBe(true);
    expect(text).not.toMatch(/^\s*(import|export)\s/m);

    // The rarer steps: their own IIFE under the hashed name the bundle asks for, reading Lit and the shared modules from the bundle.
    const manifest = JSON.parse(fs.readFileSync(path.join(widget.dir, 'asset-manifest.json'), 'utf8')) as Record<string, string>;
    const stepsName = manifest['checkout-steps.js']!;
    expect(stepsName).toMatch(/^checkout-steps\.[0-9a-f]{10}\.js$/);
    expect(text).toContain(stepsName);
    const steps = fs.readFileSync(path.join(widget.dir, stepsName));
    expect(zlib.gzipSync(steps, { level: 9 }).length).toBeLessThanOrEqual(STEPS_BUDGET_BYTES);
    const stepsText = steps.toString('utf8');
    for (const tag of ['lc-kyc', 'lc-guarantors', 'lc-catalog', 'lc-passkey', 'lc-identity', 'lc-decision', 'lc-ended']) {
      expect(defines(stepsText, tag), tag).toBe(true);
      expect(defines(text, tag), tag).toBe(false);
    }
    expect(stepsText).toContain('__lcStepsRuntime.lit');
    // The steps' English texts travel with them, not in the bundle every borrower downloads.
    expect(stepsText).toContain(enSteps['kyc.bvnHelp']);
    expect(text).not.toContain(enSteps['kyc.bvnHelp']);
    // One Lit on the page: the steps file carries none of its own (Lit's template marker lives only in the bundle).
    expect(stepsText).not.toContain('lit$');
    expect(text).toContain('lit$');

    // The mandate step: its own file, asked for by the bundle, with its English texts and no Lit of its own.
    const mandateName = manifest['checkout-mandate.js']!;
    expect(mandateName).toMatch(/^checkout-mandate\.[0-9a-f]{10}\.js$/);
    expect(text).toContain(mandateName);
    const mandate = fs.readFileSync(path.join(widget.dir, mandateName));
    expect(zlib.gzipSync(mandate).length).toBeLessThanOrEqual(MANDATE_BUDGET_BYTES);
    const mandateText = mandate.toString('utf8');
    expect(defines(mandateText, 'lc-mandate')).toBe(true);
    expect(defines(text, 'lc-mandate')).toBe(false);
    expect(defines(stepsText, 'lc-mandate')).toBe(false);
    expect(mandateText).toContain(enMandate['mandate.intro']);
    expect(text).not.toContain(enMandate['mandate.intro']);
    expect(mandateText).not.toContain('lit$');

    // Test mode's hints: their own file, which a live checkout never asks for.
    const hintsName = manifest['checkout-test-hints.js']!;
    expect(hintsName).toMatch(/^checkout-test-hints\.[0-9a-f]{10}\.js$/);
    expect(text).toContain(hintsName);
    const hintsText = fs.readFileSync(path.join(widget.dir, hintsName), 'utf8');
    expect(defines(hintsText, 'lc-test-hints')).toBe(true);
    for (const code of [text, stepsText, mandateText]) expect(defines(code, 'lc-test-hints')).toBe(false);
    expect(hintsText).toContain(enTestHints['testHints.refuse']);
    expect(stepsText).not.toContain(enTestHints['testHints.refuse']);
  });

  it('importing the ES module build in Node (server-side rendering, no DOM) does not crash, and mount() only warns', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    const module = await import(pathToFileURL(path.join(widget.libDir, 'index.js')).href);
    expect(Object.keys(module).sort()).toEqual(['CHECKOUT_EVENT_TYPES', 'LoanCheckout', 'VERSION', 'defineCheckoutElements', 'domEventName', 'returnUrlWith']);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(module.LoanCheckout.mount('#checkout', { session: `cs_test_${'a'.repeat(40)}`, server: 'https://shop.example/checkout' })).toBeUndefined();
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('needs a browser'));
      module.LoanCheckout.destroy();
    } finally {
      warn.mockRestore();
    }
  });

  it('importing the React wrapper build in Node does not crash', async () => {
    const react = await import(pathToFileURL(path.join(widget.libDir, 'react.js')).href);
    expect(typeof react.LoanCheckoutElement).toBe('function');
    expect(react.LcCheckout).toBeDefined();
  });
});

describe('the LoanCheckout API', () => {
  it('unknown calls are logged, never thrown', () => {
    const api = createLoanCheckout(() => Promise.resolve());
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(() => invoke(api, 'open', [])).not.toThrow();
      expect(() => invoke(api, 42, [])).not.toThrow();
      expect(() => api.on('no_such_event' as never, () => undefined)).not.toThrow();
      expect(warn).toHaveBeenCalledTimes(3);
      expect(warn.mock.calls[0]![0]).toContain('unknown call "open"');
    } finally {
      warn.mockRestore();
    }
  });

  it('installing the global replays the calls the snippet queued, in order, and keeps a global already installed', () => {
    const calls: string[] = [];
    const stub = Object.assign(() => undefined, { q: [['on', 'ready', () => undefined], ['bogus'], ['destroy']] as unknown[][] });
    const warn = vi.spyOn(console, 'warn').mockImplementation((message: string) => void calls.push(message));
    (globalThis as { window?: unknown }).window = { LoanCheckout: stub };
    try {
      const api = createLoanCheckout(() => Promise.resolve());
      const on = vi.spyOn(api, 'on');
      const destroy = vi.spyOn(api, 'destroy');
      const global = installGlobal(api);
      expect((globalThis as unknown as { window: { LoanCheckout: unknown } }).window.LoanCheckout).toBe(global);
      expect(on).toHaveBeenCalledWith('ready', expect.any(Function));
      expect(destroy).toHaveBeenCalledTimes(1);
      expect(calls).toEqual([expect.stringContaining('unknown call "bogus"')]);
      expect(installGlobal(createLoanCheckout(() => Promise.resolve()))).toBe(global);
      expect(() => global('nope')).not.toThrow();
    } finally {
      delete (globalThis as { window?: unknown }).window;
      warn.mockRestore();
    }
  });
});

describe('events', () => {
  it('every type has an lc- DOM event name in kebab case', () => {
    expect(CHECKOUT_EVENT_TYPES).toHaveLength(13);
    expect(domEventName('step_changed')).toBe('lc-step-changed');
    expect(new Set(CHECKOUT_EVENT_TYPES.map(domEventName)).size).toBe(13);
  });

  it('the return URL keeps the partner\'s own query, adds only the outcome and opaque ids, and works for custom schemes', () => {
    const ids = { loanId: '0b9f5c3e-2a1d-4c8e-9f7a-6d5e4c3b2a19', sessionId: '5e1f0a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b' };
    const back = new URL(returnUrlWith('https://shop.example/back?from=loan&outcome=forged', 'completed', ids));
    expect(Object.fromEntries(back.searchParams)).toEqual({ from: 'loan', outcome: 'completed', loanId: ids.loanId, checkoutSessionId: ids.sessionId });
    expect(returnUrlWith('shopapp://checkout-done', 'declined', ids)).toBe(`shopapp://checkout-done?outcome=declined&loanId=${ids.loanId}&checkoutSessionId=${ids.sessionId}`);
    expect(returnUrlWith('https://shop.example/back', 'expired', { loanId: null, sessionId: null })).toBe('https://shop.example/back?outcome=expired');
  });
});
