import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Browser tests: the machine's Chromium (never a Playwright download), screenshots at 360×640 under test-artifacts/checkout/. */
export const ARTIFACTS = path.resolve('test-artifacts/checkout');
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
export const PHONE_VIEWPORT = { width: 360, height: 640 };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

/** The bundle the checkout server serves at /checkout/widget.js. */
export const WIDGET_BUNDLE = path.resolve('dist/widget/checkout.js');

/**
 * The bundles are built once, before any browser test file runs, by the e2e project's global
 * setup (test/support/build-bundles.ts): files running side by side never rebuild them under each
 * other. This only checks they are there and makes the screenshots folder.
 */
export async function ensureBundles(): Promise<void> {
  if (!fs.existsSync(WIDGET_BUNDLE)) throw new Error('dist/widget/checkout.js is missing: run browser tests through the e2e project (its global setup builds the bundles)');
  fs.mkdirSync(ARTIFACTS, { recursive: true });
}

/** axe-core's violations on the page as it is now, as `rule: target…` lines (empty when none). */
/**
 * axe over a page whose content is in a frame (an embedded checkout). @axe-core/playwright gives
 * itself one second to inject axe into each frame and silently leaves out a frame it could not
 * reach in time (it happens on a loaded machine), so this runs again until the results include
 * nodes inside a frame, and fails if they never do: a pass must mean the frame was checked.
 */
export async function axeViolationsWithFrames(page: Page, attempts = 3): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const results = await new AxeBuilder({ page }).analyze();
    const inFrame = [...results.passes, ...results.violations, ...results.incomplete].some((rule) => rule.nodes.some((node) => node.target.length > 1));
    if (inFrame) return described(results.violations);
    if (attempt === attempts) throw new Error(`axe did not reach the page's frames in ${attempts} attempts`);
  }
}

export async function axeViolations(page: Page): Promise<string[]> {
  return described((await new AxeBuilder({ page }).analyze()).violations);
}

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
const described = (violations: AxeResults['violations']) => violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

/** The viewport as the borrower sees it (360×640 in these tests). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/**
 * The page's HTML with the content of every open shadow root (`page.content()` leaves shadow roots
 * out, so a "nothing of the loan is on the page" check must read this instead).
 */
export async function deepContent(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [document.documentElement.outerHTML];
    const walk = (root: Document | ShadowRoot) => {
      for (const element of root.querySelectorAll('*')) {
        if (element.shadowRoot) {
          parts.push(element.shadowRoot.innerHTML);
          walk(element.shadowRoot);
        }
      }
    };
    walk(document);
    return parts.join('\n');
  });
}

/** The text an element shows, including what the steps inside it render in their shadow roots. */
export async function deepText(page: Page, selector: string): Promise<string> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    const walk = (node: Node) => {
      if (node.nodeType === Node.TEXT_NODE) out.push(node.textContent ?? '');
      if (node instanceof Element && ['STYLE', 'SCRIPT', 'TEMPLATE'].includes(node.tagName)) return;
      if (node instanceof Element && node.shadowRoot) walk(node.shadowRoot);
      for (const child of node.childNodes) walk(child);
    };
    const root = document.querySelector(sel);
    if (root) walk(root);
    return out.join(' ').replace(/\s+/g, ' ');
  }, selector);
}

/** The element that has the focus, looking inside shadow roots (`document.activeElement` stops at their host). */
export async function focused(page: Page): Promise<{ tagName: string; id: string; text: string }> {
  return page.evaluate(() => {
    let element = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    return { tagName: element?.tagName ?? '', id: element?.id ?? '', text: element?.textContent?.trim() ?? '' };
  });
}
