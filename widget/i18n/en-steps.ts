/**
 * The English texts of the on-demand steps (`widget/steps.ts`: KYC, guarantors, the settlement
 * catalog, the passkey offer, patient financing's identity and decision, the page of an ended link).
 * They travel in the steps file, not in the script-tag bundle, and are added to English when it loads
 * (`steps-english.ts`). Same rules as `en.ts`, of which they are part (`en`).
 */
export const enSteps = {
  // The page of a link that has ended (lc-ended)
  'checkout.notAvailable.title': 'This checkout is not available',

  // Identity (lc-kyc)
  'kyc.bvn': 'BVN (Bank Verification Number)',
  'kyc.bvnHelp': '11 digits. Dial *565*0# from your bank-registered phone to get it.',
  'kyc.bvnInvalid': 'Your BVN is exactly 11 digits.',
  'kyc.nin': 'NIN (optional)',
  'kyc.dob': 'Date of birth (optional)',
  'kyc.address': 'Home address (optional)',
  'kyc.submit': 'Verify my identity',
  'kyc.checking': 'Checking…',
  'kyc.failed':
    'We could not verify your identity with these details. Check your BVN and try again; if it still fails, the lender will contact you about other ways to verify.',
  'kyc.pending': 'Your details are still being checked. Submit them again in a moment to see the result.',

  // Guarantors (lc-guarantors)
  'guarantors.needed.one': 'This loan needs {count} guarantor: {confirmed} of {count} confirmed.',
  'guarantors.needed.other': 'This loan needs {count} guarantors: {confirmed} of {count} confirmed.',
  'guarantors.confirmed': 'confirmed',
  'guarantors.waiting': 'waiting for their code',
  'guarantors.name': "Guarantor's full name",
  'guarantors.phone': "Guarantor's phone number",
  'guarantors.relationship': 'Relationship to you',
  'guarantors.relationshipHelp': 'For example sibling, employer or friend.',
  'guarantors.send': 'Text them a code',
  'guarantors.sending': 'Texting them…',
  'guarantors.resent': 'We texted {name} a new code.',
  'guarantors.codeLabel': 'Code {name} received',
  'guarantors.codeHelp': 'Ask {name} for the 6-digit code we texted them: giving it to you confirms they agree to guarantee this loan.',
  'guarantors.confirm': 'Confirm guarantor',
  'guarantors.checking': 'Checking…',
  'guarantors.resend': 'Text the code again',

  // Settlement catalog (lc-catalog)
  'catalog.intro': 'Choose the pharmacy or laboratory that should receive the money. We pay them directly; you do not receive it yourself.',
  'catalog.search': 'Search by name or area',
  'catalog.looking': 'Looking for merchants…',
  'catalog.noMatch': 'No merchant matches “{query}”. Try another name or area.',
  'catalog.none': 'There are no merchants to choose from yet. Please contact the lender.',
  'catalog.count.one': '{count} merchant.',
  'catalog.count.other': '{count} merchants.',
  'catalog.countMatching.one': '{count} merchant matching “{query}”.',
  'catalog.countMatching.other': '{count} merchants matching “{query}”.',
  'catalog.legend': 'Merchants',
  'catalog.more': 'Show more',
  'catalog.loadingMore': 'Loading…',
  'catalog.choose': 'Pay this merchant',
  'catalog.saving': 'Saving…',
  'catalog.kind.laboratory': 'Laboratory',
  'catalog.kind.pharmacy': 'Pharmacy',
  'catalog.kind.laboratory_pharmacy': 'Laboratory and pharmacy',

  // Passkeys: the offer after the OTP (lc-passkey)
  'passkey.offer.body': 'Sign with your fingerprint, face or screen lock as well as your typed name. It is optional: you can always sign with your typed name alone.',
  'passkey.create': 'Create a passkey',
  'passkey.creating': 'Creating passkey…',
  'passkey.prompt': 'Follow the prompt on your device…',
  'passkey.retry': 'Try again',
  'passkey.skip': 'Not now',
  'passkey.saved': 'Passkey saved on this device. You can use it to sign your offer.',
  'passkey.continue': 'Continue',

  // Patient financing: identity and decision (lc-identity, lc-decision)
  'identity.applying': 'You are applying to finance {amount}.',
  'identity.intro': 'We check your identity with your BVN and run a credit check; nothing is shared with your clinic but the outcome.',
  'identity.fullName': 'Full name (as on your BVN)',
  'identity.dob': 'Date of birth',
  'identity.income': 'Monthly income (₦)',
  'identity.incomeHelp': 'What you earn in a month, before expenses. It decides which repayment plans you can afford.',
  'identity.email': 'E-mail (optional)',
  'identity.emailHelp': 'Your bank\'s direct-debit confirmation goes here.',
  'identity.checking': 'Checking…',
  'identity.submit': 'Check my eligibility',
  'identity.error.fullName': 'Write your first and last name as on your BVN.',
  'identity.error.bvn': 'Your BVN is exactly 11 digits.',
  'identity.error.dateOfBirth': 'Enter your date of birth.',
  'identity.error.income': 'Enter your monthly income in naira, e.g. 250,000.',
  'decision.approved': 'Good news: you are approved to finance {amount} for {treatment}.',
  'decision.legend': 'Choose how long to repay',
  'decision.option.one': '{count} month: up to {instalment} a month',
  'decision.option.other': '{count} months: up to {instalment} a month',
  'decision.facts': '{instalments} instalments, {total} in total (cost of credit {cost}, APR {apr})',
  'decision.missing': 'Choose a repayment plan.',
  'decision.preparing': 'Preparing your offer…',
  'decision.submit': 'See my offer',

  // "Text me a new link" on an expired link (lc-ended)
  'renew.button': 'Text me a new link',
  'renew.sent': "We've texted a new link to {phone}. Open it to carry on.",
  'renew.later': 'You can ask for another new link in {minutes} min. If you need help sooner, contact the lender.',
  'renew.contact': 'Questions? Contact {name}.',
} as const;
