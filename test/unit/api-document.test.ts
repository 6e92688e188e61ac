import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { validate } from '@scalar/openapi-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../server/platform/http/openapi';
import { apiRoutes } from '../../server/platform/http/routes';

const run = promisify(execFile);
const SERVER = 'https://lending.example';
/** Words that belong to our own notes, not to a partner's reference. */
const INTERNAL = /\(addition\)|\baddition\b|\bspecs?\b|spec's|spec part|\bfinding|\bissue\s*#?\d/i;

type Operation = { requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, { content?: Record<string, { example?: unknown }> }> };
let document: any;
beforeAll(() => {
  document = buildOpenApiDocument(apiRoutes, SERVER);
});

const operations = (): [string, Operation][] =>
  Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([p, ops]) => Object.entries(ops).map(([method, op]) => [`${method} ${p}`, op] as [string, Operation]));

describe('the API document', () => {
  it('names the server it is built for', () => {
    expect(document.servers).toEqual([{ url: SERVER, description: 'This deployment' }]);
  });

  it('passes Redocly lint (redocly.yaml: the recommended rules, examples checked against their schemas) with no warning', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'api-document-')), 'lending-v1.json');
    fs.writeFileSync(file, JSON.stringify(document));
    const result = await run(path.resolve('node_modules/.bin/redocly'), ['lint', file, '--config', path.resolve('redocly.yaml'), '--format=stylish'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      timeout: 90_000,
    }).catch((error) => error);
    const output = `${result.stdout}\n${result.stderr}`;
    expect(output).toMatch(/Your API description is valid/);
    expect(output).not.toMatch(/\b(warning|error)\b\s+[a-z0-9.-]+\s/);
    expect(result.code ?? 0).toBe(0);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }, 120_000);

  it('passes the validator of the API reference page (Scalar\'s OpenAPI parser)', async () => {
    const result = await validate(JSON.stringify(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has an example for every request body and every response of every operation', () => {
    const missing: string[] = [];
    for (const [name, op] of operations()) {
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) if (media.example === undefined) missing.push(`${name} request ${type}`);
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) if (media.example === undefined) missing.push(`${name} ${status} ${type}`);
      }
    }
    expect(operations().length).toBe(apiRoutes.length);
    expect(missing).toEqual([]);
  });

  it('shows an error example as the API sends it, with the docUrl of its code on the document\'s server', () => {
    const example = document.paths['/v1/products/{id}'].get.responses['404'].content['application/json'].example;
    expect(example).toMatchObject({ status: 404, success: false, error: 'NOT_FOUND', docUrl: `${SERVER}/docs/errors#NOT_FOUND` });
  });

  it('speaks to partners: no internal wording in any description or summary', () => {
    const found: string[] = [];
    JSON.stringify(document, (key, value) => {
      if ((key === 'description' || key === 'summary') && typeof value === 'string' && INTERNAL.test(value)) found.push(value.slice(0, 120));
      return value;
    });
    expect(found).toEqual([]);
  });
});
