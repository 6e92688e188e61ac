/**
 * The borrower's loan page bundle (`dist/my-loan/my-loan.js`, `widget/my-loan/vite.config.ts`), served by the checkout
 * server at `<mount>/my-loan`. Its own bundle: the checkout's script-tag budget is not touched.
 */
import { LcMyLoan } from './lc-my-loan';
import { LcMyLoanLoan } from './lc-my-loan-loan';

// ── Optional parts of the loan view: their imports go here ──
// "Change my bank account": `<lc-change-bank .api=${api} .loan=${loan}>` (widget/my-loan/lc-change-bank.ts) shows in
// the loan view when its element is defined. Its import line:
import './lc-change-bank';
// ── end of the optional parts ──

if (!customElements.get('lc-my-loan-loan')) customElements.define('lc-my-loan-loan', LcMyLoanLoan);
if (!customElements.get('lc-my-loan')) customElements.define('lc-my-loan', LcMyLoan);
