/** The checkout widget bundle: defines the `lc-*` elements. */
import './lc-otp/lc-otp';
import './lc-checkout/lc-checkout';
