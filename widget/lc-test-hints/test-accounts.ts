import type { MessageKey } from '../i18n/i18n';

/**
 * GTBank (058) account numbers of the sandbox bank lookup's magic serials (`SANDBOX_ACCOUNT_SERIALS` in
 * server/integrations/bank-lookup.ts: the first nine digits decide, whatever the bank), each with its
 * NUBAN check digit for 058 (a unit test recomputes them).
 */
export const TEST_ACCOUNTS = [
  ['9999999990', 'testHints.notFound'],
  ['8888888889', 'testHints.unavailable'],
  ['7777777778', 'testHints.someoneElse'],
  ['6666666667', 'testHints.initialOnly'],
] as const satisfies ReadonlyArray<readonly [string, MessageKey]>;
