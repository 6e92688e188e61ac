import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Code, tests and docs say what a thing is for in the system's terms, not which work item added it: a tracker's
 * number or a planning slice means nothing to the next reader and goes stale the day the item closes. This reads
 * every tracked file of the areas people read (the sources, tests, docs and READMEs) and fails on a reference to a
 * numbered issue or to a slice. Generated and vendored files are left out: their source is checked instead.
 */
const root = path.resolve(__dirname, '../..');

/** Where people read prose and comments. */
const AREAS = ['server/', 'widget/', 'dashboard/', 'demo/', 'test/', 'docs/', 'sdk/', 'examples/', 'scripts/', '.ci/'];
const TOP_LEVEL = ['README.md', 'ARCHITECTURE.md'];

/** Generated or vendored: their text comes from files this test reads anyway. */
const GENERATED = new Set(['sdk/src/schema.d.ts', 'docs/errors.md']);
const SKIPPED = /(^|\/)(node_modules|dist)\/|(^|\/)package-lock\.json$|(^|\/)CHANGELOG[^/]*$/i;
const BINARY = /\.(png|jpe?g|gif|webp|ico|pdf|woff2?|ttf|otf|br|gz|zip|sqlite|db|webm|ogg|mp4|wav)$/i;

/** The word issue or issues, then a number, with or without a hash: the forms the first test spells out. */
const ISSUE_NUMBER = /\bissues?\s*#?\d+/i;
/** A planning slice by its number or as "this" or "earlier" one. */
const SLICE = /\bslices?\s+s?\d+[a-z]?\b|\b(?:this|earlier|previous|next|later|first|second)\s+slice\b/i;

function workItemReference(line: string): string | undefined {
  return line.match(ISSUE_NUMBER)?.[0] ?? line.match(SLICE)?.[0];
}

function trackedFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return listed
    .split('\0')
    .filter((file) => file !== '')
    .filter((file) => TOP_LEVEL.includes(file) || AREAS.some((area) => file.startsWith(area)))
    .filter((file) => !GENERATED.has(file) && !SKIPPED.test(file) && !BINARY.test(file));
}

describe('no work-item numbers in code, tests and docs', () => {
  it('recognises an issue number or a slice in the forms they were written', () => {
    // Built from parts so that this file does not contain what it looks for.
    const issue = 'iss' + 'ue';
    expect(workItemReference(`// The dashboard (${issue} 18): keys`)).toBeDefined();
    expect(workItemReference(`# Languages server side (${issue.toUpperCase()} #21)`)).toBeDefined();
    expect(workItemReference(`${issue}s 15 and 16`)).toBeDefined();
    expect(workItemReference(`## Security findings (part 4, ${'sli' + 'ce'} s16a)`)).toBeDefined();
    expect(workItemReference(`### Earlier ${'sli' + 'ce'}: rails and AML`)).toBeDefined();
  });

  it('leaves ordinary words alone', () => {
    expect(workItemReference('issue-offer claims the pre-approval; issueLoanOffer mints a session')).toBeUndefined();
    expect(workItemReference(`an offer issued 3 days ago; ${'tis' + 'sue'} 5`)).toBeUndefined();
    expect(workItemReference("uploads the recorder's last slice; text.slice(0, 10)")).toBeUndefined();
  });

  it('finds none in any tracked source, test, doc or README', () => {
    const files = trackedFiles();
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files) {
      const full = path.join(root, file);
      if (!fs.existsSync(full) || !fs.statSync(full).isFile()) continue;
      const text = fs.readFileSync(full, 'utf8');
      if (text.includes('\0')) continue;
      text.split('\n').forEach((line, index) => {
        const reference = workItemReference(line);
        if (reference) found.push(`${file}:${index + 1}: "${reference}" in ${line.trim().slice(0, 120)}`);
      });
    }
    // Say why instead: what the code is for, in the system's words (see ARCHITECTURE.md and docs/).
    expect(found).toEqual([]);
  });
});
