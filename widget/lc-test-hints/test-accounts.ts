import type { MessageKey } from '../i18n/i18n';

/**
 * GTBank (058) account numbers for the bank step in test mode, each with its NUBAN check digit for 058 (a unit test
 * recomputes them): first an ordinary one, which the sandbox lookup answers with the borrower's own name (the way
 * through: a random number fails the check digit), then one per magic serial of the sandbox lookup
 * (`SANDBOX_ACCOUNT_SERIALS` in server/integrations/bank-lookup.ts: the first nine digits decide, whatever the bank).
 */
export const TEST_ACCOUNTS = [
  ['0123456785', 'testHints.ownName'],
  ['9999999990', 'testHints.notFound'],
  ['8888888889', 'testHints.unavailable'],
  ['7777777778', 'testHints.someoneElse'],
  ['6666666667', 'testHints.initialOnly'],
] as const satisfies ReadonlyArray<readonly [string, MessageKey]>;
