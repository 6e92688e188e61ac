/**
 * `npm run docs:errors`: writes `docs/errors.md` from the error table and its documentation
 * (`domain/errors.ts`, `domain/error-docs.ts`). `--check` exits 1 when the file is stale instead of writing it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderErrorsMarkdown } from '../platform/http/error-docs';

export const ERRORS_MD = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/errors.md');

const markdown = renderErrorsMarkdown();
const current = fs.existsSync(ERRORS_MD) ? fs.readFileSync(ERRORS_MD, 'utf8') : '';
if (process.argv.includes('--check')) {
  if (current !== markdown) {
    console.error('docs/errors.md is stale: run npm run docs:errors');
    process.exit(1);
  }
} else if (current !== markdown) {
  fs.writeFileSync(ERRORS_MD, markdown);
  console.log('wrote docs/errors.md');
}
