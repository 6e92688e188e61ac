/** The elements every checkout can need on its way to the first step and through the common path (the script-tag bundle); the mandate step comes on demand (`mandate-step.ts`). */
import './lc-otp/lc-otp';
import './lc-offer/lc-offer';
import './lc-bank/lc-bank';
import './lc-checkout/lc-checkout';
