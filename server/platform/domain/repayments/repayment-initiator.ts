/**
 * Who started a repayment (`loan_repayments.initiated_by`): `schedule` (the collector's direct debit of what fell
 * due), `borrower` (pay now or pay off on their loan page), `partner` (recorded or charged through
 * `POST /v1/loans/{id}/repayments`). No imports: the event catalogue and the HTTP schemas read it at load.
 */
export const REPAYMENT_INITIATORS = ['schedule', 'borrower', 'partner'] as const;
export type RepaymentInitiator = (typeof REPAYMENT_INITIATORS)[number];
