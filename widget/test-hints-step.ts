/**
 * Test mode's hints (`lc-test-hints`: where the code is, the sandbox's account numbers): only a test-mode
 * checkout asks for this file, so a live borrower never downloads it; the ES module build imports it
 * with the rest.
 */
import './test-hints-english';
import './lc-test-hints/lc-test-hints';
