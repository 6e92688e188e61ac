import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILE, generateSchema } from '../../sdk/scripts/generate-schema';

const sdkSource = path.resolve(__dirname, '../../sdk/src');

describe('client package', () => {
  it('its generated types match the OpenAPI document the server builds (else run npm run sdk:schema)', async () => {
    const committed = fs.readFileSync(SCHEMA_FILE, 'utf8');

    const generated = await generateSchema();

    // A plain equality check: a diff of a 15 000-line file would drown the message.
    expect(generated === committed, 'sdk/src/schema.d.ts is stale: run npm run sdk:schema and commit it').toBe(true);
  });

  it('its source runs outside Node: no node: imports, no Node globals, no imports from outside sdk/src but openapi-fetch', () => {
    const problems: string[] = [];
    for (const file of fs.readdirSync(sdkSource).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
      const text = fs.readFileSync(path.join(sdkSource, file), 'utf8');
      for (const match of text.matchAll(/from\s+'([^']+)'/g)) {
        const spec = match[1]!;
        if (!spec.startsWith('./') && spec !== 'openapi-fetch') problems.push(`${file} imports ${spec}`);
      }
      for (const use of [/\bBuffer\./, /\bprocess\./, /\brequire\(/, /\b__dirname\b/]) if (use.test(text)) problems.push(`${file} uses ${use.source}`);
    }
    expect(problems).toEqual([]);
  });
});
