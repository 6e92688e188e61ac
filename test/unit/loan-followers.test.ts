import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { LoansTable } from '../../server/platform/db/schema';
import { registerLoanFollower, tellLoanFollowers, type LoanFollower } from '../../server/platform/domain/events/followers';
import type { LoanWriteContext } from '../../server/platform/domain/loans/loan-context';

const ctx = {} as LoanWriteContext;
const loan = (id: string) => ({ id }) as LoansTable;

describe('loan followers', () => {
  it('when a follower follows the loan, then it hears the event and the loan counts as followed', async () => {
    const heard: string[] = [];
    const follower: LoanFollower = { name: 'test-follower', follows: (l) => l.id === 'followed', follow: async (_ctx, event, l) => void heard.push(`${event}:${l.id}`) };
    registerLoanFollower(follower);
    registerLoanFollower(follower); // a second platform in the same process registers again: still heard once

    expect(await tellLoanFollowers(ctx, 'loan.disbursed', loan('followed'), {})).toBe(true);
    expect(await tellLoanFollowers(ctx, 'loan.disbursed', loan('other'), {})).toBe(false);

    expect(heard).toEqual(['loan.disbursed:followed']);
  });

  it('when a follower throws, then the emitter sees the error (the transaction rolls back)', async () => {
    registerLoanFollower({ name: 'failing-follower', follows: (l) => l.id === 'failing', follow: async () => Promise.reject(new Error('boom')) });
    await expect(tellLoanFollowers(ctx, 'loan.completed', loan('failing'), {})).rejects.toThrow('boom');
  });
});

describe('lending and patient financing', () => {
  const DOMAIN = path.resolve(__dirname, '../../server/platform/domain');
  const LENDING = ['loans', 'repayments', 'mandates', 'preapprovals', 'events', 'ledger'];

  it('the lending core imports nothing from financing/ (financing follows it through events)', () => {
    const crossings = LENDING.flatMap((folder) =>
      fs
        .readdirSync(path.join(DOMAIN, folder))
        .filter((name) => name.endsWith('.ts'))
        .flatMap((name) => {
          const file = path.join(DOMAIN, folder, name);
          const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
          return importedFiles
            .map((f) => path.resolve(path.dirname(file), f.fileName))
            .filter((target) => target.startsWith(path.join(DOMAIN, 'financing') + path.sep))
            .map((target) => `${folder}/${name} → ${path.relative(DOMAIN, target)}`);
        }),
    );
    expect(crossings).toEqual([]);
  });
});
