import { describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNT_SERIALS } from '../../server/integrations/bank-lookup';
import { isValidNuban } from '../../server/shared/nuban';
import { TEST_ACCOUNTS } from '../../widget/lc-test-hints/test-accounts';

describe('the checkout\'s test-mode account numbers', () => {
  it('are valid GTBank (058) NUBANs for the sandbox lookup\'s magic serials, one each, in the hint the serial documents', () => {
    const byKey = { 'testHints.notFound': 'notFound', 'testHints.unavailable': 'unavailable', 'testHints.someoneElse': 'someoneElse', 'testHints.initialOnly': 'initialOnly' } as const;
    for (const [number, key] of TEST_ACCOUNTS) {
      expect(isValidNuban('058', number), number).toBe(true);
      expect(number.slice(0, 9)).toBe(SANDBOX_ACCOUNT_SERIALS[byKey[key]]);
    }
    expect(TEST_ACCOUNTS.map(([n]) => n.slice(0, 9)).sort()).toEqual(Object.values(SANDBOX_ACCOUNT_SERIALS).sort());
  });
});
