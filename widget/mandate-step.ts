/**
 * The direct-debit step (`lc-mandate`): every borrower reaches it, none needs it before the first
 * screen, so the script-tag build loads this file on first need (fetched ahead while the offer or the
 * bank step is shown); the ES module build imports it with the rest.
 */
import './mandate-english';
import './lc-mandate/lc-mandate';
