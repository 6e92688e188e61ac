/** lc-test-hints renders into the light DOM of the checkout shell; scoped by the element name. A dashed box: not part of the borrower's page.
 * A tap target 44 px tall from its padding, so a label that wraps (Yorùbá, Hausa, Igbo at 360 px) reads as lines of text. */
export const testHintsStyles = `
lc-test-hints { display: block; margin-top: 1rem; padding: .5rem .75rem; border: 1px dashed; }
lc-test-hints summary, lc-test-hints a { display: inline-block; padding-block: .625rem; line-height: 1.5rem; }
`;
