import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness';
import { startDemoApp } from '../support/demo';

/**
 * The addresses README.md sends a newcomer to, on a started platform: each full `http://localhost:3000/…` link and each
 * page path it names in backticks answers (no 404, no 5xx). The README is read as written, so a link renamed in the
 * code, or a path mistyped in the README, fails here.
 */
let app: TestApp;

function readmeAddresses(): string[] {
  const readme = fs.readFileSync('README.md', 'utf8');
  const links = [...readme.matchAll(/http:\/\/localhost:3000(\/[^\s`'")]*)/g)].map((m) => m[1]!);
  const paths = [...readme.matchAll(/`(\/(?:api-docs|checkout|dashboard|demo|ops|sandbox|docs)[^`\s]*)`/g)].map((m) => m[1]!);
  return [...new Set([...links, ...paths])];
}

beforeAll(async () => {
  // As `npm start` runs it: the sandbox organisation bootstrapped (the demo is served only then).
  app = await startDemoApp();
});
afterAll(async () => {
  await app?.stop();
});

describe("the README's links", () => {
  it('include the pages of the quick start and of "Where to go next"', () => {
    expect(readmeAddresses()).toEqual(expect.arrayContaining(['/sandbox/mail', '/checkout/my-loan?mode=test', '/api-docs', '/api-docs/lending-v1.json', '/dashboard', '/demo']));
  });

  it.each(readmeAddresses())('%s answers on a started platform', async (address) => {
    const res = await fetch(app.url + address, { redirect: 'manual' });
    expect(res.status, `${address} → ${res.status}`).toBeLessThan(400);
  });

  it('the loan page at ?mode=test signs in to sandbox loans: a code is sent without any live SMS provider', async () => {
    const origin = app.url;
    const res = await fetch(`${origin}/checkout/my-loan/api/sign-in/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ phone: '+2348012345678', mode: 'test' }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
  });
});
