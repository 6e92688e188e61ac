/**
 * The script-tag bundle (`<script src="…/checkout/widget.js">`, an IIFE): defines the `lc-*`
 * elements of the common path and installs the one global, `LoanCheckout`, replaying calls a pasted
 * snippet queued. The rarer steps (`widget/steps.ts`) and the mandate step (`widget/mandate-step.ts`)
 * come from the same checkout server on first need, as `{api}/steps/<hashed name>`, sharing this
 * bundle's Lit and modules.
 */
import ON_DEMAND_FILES from 'virtual:lc-steps-file';
import '../core';
import { installStepsRuntime } from '../steps-runtime';
import { loadScript, setStepsLoader } from '../steps-loader';
import { createLoanCheckout, installGlobal } from './loan-checkout';

installStepsRuntime();
setStepsLoader((apiBase, file) => loadScript(`${apiBase.replace(/\/$/, '')}/steps/${ON_DEMAND_FILES[file]}`));

// Read while the script runs: the default checkout server is where this file came from.
const script = document.currentScript as HTMLScriptElement | null;
installGlobal(createLoanCheckout(() => Promise.resolve(), script?.src));
