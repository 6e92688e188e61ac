import { enMandate } from './en-mandate.ts';
import { enSteps } from './en-steps.ts';
import { enMyLoan } from './en-my-loan.ts';
import { enTestHints } from './en-test-hints.ts';
import { enChangeBank } from './change-bank.ts';

/**
 * The checkout's English texts: the source every other table translates and the fallback of every
 * chain. Keys are `area.meaning`; `{name}` marks a value filled in at render time. Keep keys stable:
 * partners' translation overrides and the coverage report refer to them.
 *
 * `enCommon` is what the script-tag bundle carries (the shell and the common path); the texts of the
 * on-demand steps are `enSteps` (`en-steps.ts`), those of the mandate step `enMandate`
 * (`en-mandate.ts`) and those of test mode's hints `enTestHints` (`en-test-hints.ts`), which travel in their on-demand files and are added when those load. `en` is all
 * of them: the source for the other tables, the build's checks and the tests.
 */
export const enCommon = {
  // The shell (lc-checkout)
  'page.title': 'Complete your loan',
  'checkout.language': 'Language',
  'checkout.loading': 'Loading your loan checkout…',
  'checkout.progress': 'Step {n} of {m}',
  'checkout.ended.expired': 'This link has expired: links stop working after a while, to keep your loan safe.',
  'checkout.ended.revoked': 'This link has been withdrawn. Ask the lender who sent it for a new one.',
  'checkout.ended.missing': 'Open the link the lender sent you to continue.',
  'checkout.ended.unavailable': 'We cannot reach the lending service right now. Please try again in a moment.',
  'checkout.error.title': 'Something went wrong',
  'checkout.retry': 'Try again',
  'checkout.complete.title': "You're all set",
  'checkout.complete.body': 'Your loan checkout is complete. You can close this page.',
  'checkout.declined.title': 'Offer declined',
  'checkout.declined.body': 'You declined this offer.',
  'checkout.closed.title': 'This checkout is closed',
  'checkout.waiting.title': 'Waiting for the lender',
  'checkout.waiting.body': 'The lender is reviewing your application. This page updates by itself, and we will text you when your offer is ready.',
  'checkout.exited.title': 'You left the checkout',
  'checkout.exited.body': 'Nothing more was sent. You can come back to it from the lender.',
  'checkout.returned.title': 'Back from your bank',
  'checkout.returned.body': 'You are done at your bank. Close this tab and go back to finish your loan checkout.',
  'checkout.leave': 'Leave the checkout',
  'checkout.offerChanged': 'The lender updated this offer. Please review the new terms before you sign.',
  'checkout.stepElsewhere': "Continue this step in the lender's app: it is not available on this page yet.",
  'step.otp': 'Confirm your phone number',
  'step.kyc': 'Confirm your identity',
  'step.guarantors': 'Add your guarantors',
  'step.catalog': 'Choose who receives the money',
  'step.identity': 'Confirm your identity',
  'step.decision': 'Choose your repayment plan',
  'step.offer': 'Review and sign your offer',
  'step.bank': 'Your bank account',
  'step.mandate': 'Set up your repayments',

  // Phone verification (lc-otp)
  'otp.intro': 'We will text a 6-digit code to your phone.',
  'otp.introEnding': 'We will text a 6-digit code to your phone ending {digits}.',
  'otp.send': 'Send code',
  'otp.sending': 'Sending…',
  'otp.label': 'Code sent to {phone}',
  'otp.help': '6 digits. The code is valid for 5 minutes.',
  'otp.expired': 'This code has expired. Send a new code.',
  'otp.verify': 'Verify',
  'otp.checking': 'Checking…',
  'otp.resendIn': 'Send a new code in {seconds} s',
  'otp.resend': 'Send a new code',

  // The offer (lc-offer)
  'offer.receive': 'You receive',
  'offer.rate': 'Interest rate',
  'offer.rateValue': '{rate} a year',
  'offer.model.flat': 'Flat',
  'offer.model.reducing_balance': 'Reducing balance',
  'offer.totalInterest': 'Total interest',
  'offer.processingFee': 'Processing fee',
  'offer.insurance': 'Insurance premium',
  'offer.costOfCredit': 'Cost of credit',
  'offer.apr': 'APR',
  'offer.aprValue': '{rate} a year',
  'offer.lateFee': 'Late fee',
  'offer.lateFeeValue': '{rate} if paid late',
  'offer.totalRepayable': 'Total to repay',
  'offer.schedule': 'Repayment schedule',
  'offer.due': 'Due',
  'offer.amount': 'Amount',
  'offer.letter': 'Read the full offer letter (PDF)',
  'offer.name': 'Your full name (your signature)',
  'offer.nameMissing': 'Type your full name to sign.',
  'offer.reason': 'Why are you declining? (optional)',
  'offer.email': 'E-mail for your copy (optional)',
  'offer.agree': 'I have read the offer and agree to its terms.',
  'offer.agreeMissing': 'Tick the box to agree before signing.',
  'offer.decline': 'Decline',
  'offer.declineConfirm': 'Decline the offer',
  'offer.declining': 'Declining…',
  'offer.back': 'Back to the offer',
  'offer.sign': 'Sign and accept',
  'offer.signing': 'Signing…',

  // Passkeys (lc-passkey after the OTP, and the passkey signature in lc-offer): always optional
  'passkey.offer.title': 'Use a passkey to sign faster',
  'passkey.sign': 'Sign with passkey',
  'passkey.sign.pending': 'Waiting for your passkey…',

  // Patient financing (lc-identity, lc-decision and the application's endings)
  'financing.complete.body': 'Your repayments are set up. {organisation} will be notified and paid directly; you can close this page.',
  'financing.declined.body': 'You declined this offer. Talk to {organisation} about other ways to pay.',
  'financing.expired.title': 'This application has expired',
  'financing.expired.body': 'Ask {organisation} to start a new one.',
  'financing.rejected.title': 'We can\'t offer you financing',
  'financing.rejected.body': '{organisation} has been told; talk to them about other ways to pay.',
  'financing.reason.identity_mismatch': 'We could not confirm your identity with the details given.',
  'financing.reason.delinquent': 'Your credit history does not meet our lending criteria at the moment.',
  'financing.reason.unaffordable': 'The repayments would be too high for the income you told us.',
  'financing.reason.amount_above_risk_limit': 'This amount is above what we can lend you at the moment.',
  'financing.reason.outside_policy': 'This amount is outside what we finance.',
  'financing.reason.other': 'This application is closed.',

  // Bank account (lc-bank)
  'bank.intro': 'Repayments are collected from this account by direct debit.',
  'bank.bank': 'Bank',
  'bank.choose': 'Type to search: GTBank, OPay, Moniepoint, Kuda…',
  'bank.loading': 'Loading banks…',
  'bank.number': 'Account number',
  'bank.numberHelp': '10 digits (NUBAN).',
  'bank.mismatch': 'This account number does not match the bank you chose. Check both.',
  'bank.lookingUp': 'Looking up the account…',
  'bank.accountName': 'Account name:',
  'bank.confirm': 'This is my account',
  'bank.saving': 'Saving…',

  // Ownership checks and the bank search (OWNERSHIP: lc-bank, lc-offer)
  'bank.noMatch': 'No bank matches. Try another name, e.g. GTBank, OPay or Moniepoint.',
  'bank.nameMismatch': 'This account is in the name {accountName}, not {name}. Loans can only be paid into and collected from your own account.',
  'bank.useAnother': 'Use another account',
  'bank.confirmMismatch': 'It is my account: use it',
  'offer.nameHint': 'Type your own name, as your lender has it: {name}.',
  'offer.nameMismatch': 'This is not the name on your loan ({name}). Sign with your own full name.',
  'offer.namePartial': 'Only part of this matches the name on your loan ({name}). Type your full name, or tick the box to confirm it is you.',
  'offer.nameConfirm': 'This is my name: I am {name}',


  // Errors the server names by code (anything else shows the server's own message)
  'error.network_error': 'We could not reach the server. Check your connection and try again.',
  'error.unexpected_error': 'Something went wrong. Please try again.',
  'error.field': 'Check “{field}” and try again.',
  'error.fields': 'Check what you typed and try again.',
  'error.otp_incorrect': 'That code is not correct. Check the text message and try again.',
  'error.otp_expired': 'That code has expired. Ask for a new one.',
  'error.otp_locked': 'Too many wrong codes. Ask for a new code.',
  'error.otp_resend_too_soon': 'Please wait a moment before asking for another code.',
  'error.otp_send_limit': 'Too many codes were sent to this phone. Try again in an hour.',
  'error.sms_unavailable': 'We could not send the text message right now. Try again in a moment.',
  'error.provider_not_configured': 'This is not available right now. Try again later, or contact your lender.',
  'error.account_not_found': 'We could not find this account at the bank you chose. Check the number and the bank.',
  'error.bank_lookup_unavailable': "We cannot reach your bank right now. Try again in a moment.",
  'error.account_number_invalid': 'An account number is exactly 10 digits.',
  'error.passkey_cancelled': 'The passkey prompt was closed. You can try again, or continue without a passkey.',
  'error.passkey_unavailable': 'This device could not use a passkey. You can continue without one.',
  'error.passkey_verification_failed': 'Your passkey could not be checked. Try again, or sign with your typed name.',
  'error.passkeys_unavailable': 'Passkeys are not available here. Sign with your typed name.',
  'error.passkey_challenge_expired': 'That took too long. Try the passkey again, or sign with your typed name.',
  'error.checkout_session_expired': 'This link has expired. Ask the lender who sent it for a new one.',

  // Embedding (EMBED): the checkout server refused the page's origin
  'error.origin_not_allowed': "This checkout can't open on this website yet. Go back to the lender's app or website, or contact them for help.",
  // Sessions: the OTP restored after a reload, ended links, "text me a new link"
  'otp.alreadySent': 'A code was already sent to {phone}. Type it below, or ask for a new one when the timer ends.',
  'otp.attemptsLeft': 'Attempts left: {n}',
  'otp.noAttemptsLeft': 'No attempts left. Ask for a new code.',
  'error.otp_superseded': 'That code is from an earlier text. A newer code was sent: use the code in the latest text message.',
  'checkout.ended.unknown': 'We do not recognise this link. Check that you opened the whole link from the text message, or ask the lender to send it again.',
  // Checkout design: the shell's header and footer, the receipt, the offer's headline and plain words
  'page.titleDone': 'Loan confirmed',
  'checkout.testMode': 'Test mode',
  'checkout.securedBy': 'Secured by {platform}',
  'checkout.privacy': 'Privacy',
  'checkout.terms': 'Terms',
  'checkout.help': 'Help',
  'receipt.confirmed': 'Your loan with {organisation} is confirmed.',
  'receipt.amount': 'Loan amount',
  'receipt.account': 'Repaid from',
  'receipt.firstDebit': 'First repayment',
  'receipt.firstDebitValue': '{amount} on {date}',
  'receipt.reference': 'Reference',
  'receipt.texted': 'We have texted you a copy.',
  'receipt.myLoan': 'See your loan any time, pay early or pay it off',
  'payout.pending': 'The money will be paid to {to} once {lender} releases your loan.',
  'payout.released': '{lender} released your loan on {date}: the money is paid to {to}.',
  'payout.toBank': 'your bank account',
  'payout.toWallet': 'your {lender} wallet',
  'offer.youRepay': 'You repay',
  'offer.headline.monthly': '{amount} a month for {count} months',
  'offer.headline.weekly': '{amount} a week for {count} weeks',
  'offer.headline.biweekly': '{amount} every two weeks, {count} times',
  'offer.headline.daily': '{amount} a day for {count} days',
  'offer.headline.once': 'One payment of {amount}',
  'offer.headline.varies': '{count} payments, the first {amount}',
  'offer.firstDue': 'First payment on {date}',
  'offer.dueOn': 'Due on {date}',
  'offer.length': 'Loan length',
  'offer.lengthValue': '{days} days',
  'offer.modelLabel': 'Interest type',
  'offer.rateMonthly': '{rate} a month',
  'offer.aprNote': 'APR: the yearly cost of the loan with interest and all fees, to compare offers.',
  // Step history
  'error.rail_unavailable': 'We cannot reach the direct-debit service right now. Try again in a moment.',
  'history.leave.title': 'Leave the checkout?',
  'history.leave.body': 'Your progress is saved; the same link brings you back. Press Back again to leave.',
  'history.leave.stay': 'Stay',
  'history.review.done': 'You have done this step.',
  'history.review.continue': 'Continue',
  'history.review.offerSigned': 'You have signed this offer; it cannot be changed.',
  'history.review.bankNow': 'Repayments come from {account}. You can give another account below.',
  'history.review.keep': 'Keep this account',
  // Refused e-mail (lc-offer's signer e-mail, lc-mandate's): the offer step can show it before the mandate file loads
  'mandate.emailInvalid': 'Enter an e-mail address like name@example.com.',
} as const;

/** Every English text (pure: a bundle that reads only `enCommon` carries none of the on-demand files' tables). */
export const en: typeof enCommon & typeof enSteps & typeof enMandate & typeof enTestHints & typeof enMyLoan & typeof enChangeBank = /* @__PURE__ */ Object.assign({}, enCommon, enSteps, enMandate, enTestHints, enMyLoan, enChangeBank);

export type MessageKey = keyof typeof en;
