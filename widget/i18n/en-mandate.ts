/**
 * The English texts of the direct-debit step (`lc-mandate`). They travel in the mandate step's
 * on-demand file (`widget/mandate-step.ts`), not in the script-tag bundle, and are added to English
 * when it loads (`mandate-english.ts`). Same rules as `en.ts`, of which they are part (`en`).
 */
export const enMandate = {
  'mandate.intro': "You will approve a direct debit on your bank's page, then come back here.",
  'mandate.confirming': 'Confirming your direct debit with your bank… This usually takes a few seconds.',
  'mandate.stalled': 'Your bank has not confirmed yet. You can close this page; we will finish when it does.',
  'mandate.continue': 'Continue to your bank',
  'mandate.continueNewTab': 'Continue to your bank (opens a new tab)',
  'mandate.checkAgain': 'Check again',
  'mandate.setUp': 'Set up direct debit',
  'mandate.preparing': 'Preparing…',
  'mandate.email': 'Your e-mail address (required)',
  'mandate.emailHelp': 'Your bank sends the direct-debit confirmation here.',
  'mandate.summary.title': 'What will be debited',
  'mandate.summary.account': 'From',
  'mandate.summary.instalment': 'Each repayment',
  'mandate.summary.lastAmount': 'Last repayment',
  'mandate.summary.count': 'Number of repayments',
  'mandate.summary.first': 'First debit',
  'mandate.summary.last': 'Last debit',
  'mandate.failed.declined': 'You declined the direct debit at your bank. Nothing will be taken from your account.',
  'mandate.failed.failed': 'Your bank could not set up the direct debit. Nothing was taken from your account.',
  'mandate.failed.expired': 'The request expired before you approved it. Nothing was taken from your account.',
  'mandate.tryAgain': 'Try again',
  'mandate.changeBank': 'Use another bank account',
  'mandate.contact': 'Rather not use a direct debit? Talk to {organisation}.',
} as const;
