import { describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNT_SERIALS, SandboxBankLookup } from '../../server/integrations/bank-lookup';
import { isValidNuban } from '../../server/shared/nuban';
import { TEST_ACCOUNTS } from '../../widget/lc-test-hints/test-accounts';

describe('the checkout\'s test-mode account numbers', () => {
  it('are valid GTBank (058) NUBANs for the sandbox lookup\'s magic serials, one each, in the hint the serial documents', () => {
    const byKey = { 'testHints.notFound': 'notFound', 'testHints.unavailable': 'unavailable', 'testHints.someoneElse': 'someoneElse', 'testHints.initialOnly': 'initialOnly' } as const;
    const magic = TEST_ACCOUNTS.filter(([, key]) => key !== 'testHints.ownName');
    for (const [number, key] of magic) {
      expect(isValidNuban('058', number), number).toBe(true);
      expect(number.slice(0, 9)).toBe(SANDBOX_ACCOUNT_SERIALS[byKey[key as keyof typeof byKey]]);
    }
    expect(magic.map(([n]) => n.slice(0, 9)).sort()).toEqual(Object.values(SANDBOX_ACCOUNT_SERIALS).sort());
  });

  it('start with one that goes through: a valid GTBank NUBAN the sandbox lookup answers with the borrower\'s own name', async () => {
    const [number, key] = TEST_ACCOUNTS[0];
    expect(key).toBe('testHints.ownName');
    expect(isValidNuban('058', number)).toBe(true);
    expect(Object.values(SANDBOX_ACCOUNT_SERIALS)).not.toContain(number.slice(0, 9));
    const lookup = new SandboxBankLookup();
    expect(await lookup.resolveAccount({ bankCode: '058', accountNumber: number, mode: 'test', sandboxHolderName: 'Ada Obi' })).toEqual({ found: true, accountName: 'OBI ADA' });
  });
});
