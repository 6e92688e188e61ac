/**
 * The English texts of test mode's hints (`lc-test-hints`): where the code is, the sandbox's account
 * numbers. They travel in the hints' on-demand file (`widget/test-hints-step.ts`, fetched in test mode
 * only) and are added to English when it loads. Same rules as `en.ts`, of which they are part (`en`).
 */
export const enTestHints = {
  'testHints.otp': 'Test mode: no text is sent; the code is in the sandbox inbox.',
  'testHints.inbox': 'Open the sandbox inbox',
  'testHints.bank': 'Test accounts (choose GTBank)',
  'testHints.ownName': 'your own name: accepted',
  'testHints.notFound': 'no such account',
  'testHints.unavailable': 'bank unreachable',
  'testHints.someoneElse': "someone else's name",
  'testHints.initialOnly': 'surname and initial only',
  'testHints.refuse': 'Refuse on the test bank page declines the debit.',
} as const;
