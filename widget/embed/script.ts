/**
 * The script-tag bundle (`<script src="…/checkout/widget.js">`, an IIFE): defines the `lc-*`
 * elements and installs the one global, `LoanCheckout`, replaying calls a pasted snippet queued.
 */
import '../index';
import { createLoanCheckout, installGlobal } from './loan-checkout';

// Read while the script runs: the default checkout server is where this file came from.
const script = document.currentScript as HTMLScriptElement | null;
installGlobal(createLoanCheckout(() => Promise.resolve(), script?.src));
