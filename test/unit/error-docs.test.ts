import fs from 'node:fs';
import path from 'node:path';
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { ERROR_AREAS, ERROR_DOCS } from '../../server/platform/domain/error-docs';
import { ERROR_STATUS, type ErrorCode } from '../../server/platform/domain/errors';
import { errorBody } from '../../server/platform/http/envelope';
import { renderErrorsMarkdown, renderErrorsPage } from '../../server/platform/http/error-docs';

const codes = Object.keys(ERROR_STATUS) as ErrorCode[];
const ERRORS_MD = path.resolve('docs/errors.md');

describe('the error reference', () => {
  it('documents every code of the error table, and nothing else, with a meaning and what to do', () => {
    expect(Object.keys(ERROR_DOCS).sort()).toEqual([...codes].sort());
    for (const code of codes) {
      const doc = ERROR_DOCS[code];
      expect(ERROR_AREAS, code).toContain(doc.area);
      expect(doc.meaning.trim().length, `${code} meaning`).toBeGreaterThan(10);
      expect(doc.action.trim().length, `${code} action`).toBeGreaterThan(5);
    }
  });

  it('docs/errors.md is the generated one (run npm run docs:errors after changing the table or its docs)', () => {
    expect(fs.readFileSync(ERRORS_MD, 'utf8')).toBe(renderErrorsMarkdown());
  });

  it('docs/errors.md has an anchor and the HTTP status for every code', () => {
    const markdown = fs.readFileSync(ERRORS_MD, 'utf8');
    for (const code of codes) expect(markdown, code).toContain(`| <a id="${code}"></a>\`${code}\` | ${ERROR_STATUS[code]} |`);
  });

  it('the served page has a row with the id of every code, under a policy that allows no script', () => {
    const { html, csp } = renderErrorsPage();
    for (const code of codes) expect(html, code).toContain(`<tr id="${code}">`);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/script-src/);
    expect(html).not.toContain('<script');
  });

  it('an error body links its code\'s entry on the response\'s docs base', () => {
    const res = { locals: { docsBase: 'https://api.example.com' } } as unknown as Response;
    expect(errorBody(res, 409, 'stale_document_reference', 'Stale.', { currentOffer: null })).toEqual({
      status: 409,
      success: false,
      message: 'Stale.',
      error: 'stale_document_reference',
      docUrl: 'https://api.example.com/docs/errors#stale_document_reference',
      data: { currentOffer: null },
    });
  });
});
