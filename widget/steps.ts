/**
 * The steps most borrowers never see, kept out of the script-tag bundle (the 30 KB budget is what
 * every borrower downloads before the first step): managed-tier KYC, guarantors, the settlement
 * catalog, the passkey offer, patient financing's identity and decision, and the page of a link that has
 * ended (expired, withdrawn, not recognised). The script-tag build
 * loads this file on first need (`steps-loader.ts`); the ES module build imports it with the rest.
 */
import './steps-english';
import './lc-kyc/lc-kyc';
import './lc-guarantors/lc-guarantors';
import './lc-catalog/lc-catalog';
import './lc-passkey/lc-passkey';
import './lc-identity/lc-identity';
import './lc-decision/lc-decision';
import './lc-ended/lc-ended';
import { registerCeremonies } from './passkeys';
import { createPasskey, usePasskey } from './webauthn';

registerCeremonies({ createPasskey, usePasskey });
