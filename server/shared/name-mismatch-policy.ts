/**
 * What a product does with a bank account in another name that the borrower confirmed as theirs (a business account,
 * a name changed at marriage): `allow` keeps it (the default, and the behaviour before the setting existed); `review`
 * keeps it and parks the loan `under_review` until a person decides (review `name_mismatch`); `refuse` answers 409
 * `account_name_mismatch` even when confirmed, so only an account in the borrower's own name is kept. Shared so the
 * dashboard's product form offers exactly these.
 */
export const NAME_MISMATCH_POLICIES = ['allow', 'review', 'refuse'] as const;
export type NameMismatchPolicy = (typeof NAME_MISMATCH_POLICIES)[number];
