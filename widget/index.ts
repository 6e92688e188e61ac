/** The checkout widget bundle: defines the `lc-*` elements. */
import './lc-otp/lc-otp';
import './lc-offer/lc-offer';
import './lc-bank/lc-bank';
import './lc-mandate/lc-mandate';
import './lc-kyc/lc-kyc';
import './lc-guarantors/lc-guarantors';
import './lc-catalog/lc-catalog';
import './lc-passkey/lc-passkey';
import './lc-identity/lc-identity';
import './lc-decision/lc-decision';
import './lc-checkout/lc-checkout';
