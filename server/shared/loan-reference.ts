const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The loan's reference as a borrower reads it out or types it: `K7QM-2XHD`, eight characters of
 * Crockford base32 (no I, L, O or U to misread) from the last 40 bits of the loan's id. Those bits of
 * a UUIDv7 are random (its first ones are the time, shared by loans made together), so two loans of
 * one lender share a reference about once in a trillion pairs. Pure, the same on the page and in texts.
 */
export function loanReference(loanId: string): string {
  let bits = parseInt(loanId.replace(/-/g, '').slice(-10), 16) || 0;
  let out = '';
  for (let i = 0; i < 8; i++, bits = Math.floor(bits / 32)) out = CROCKFORD[bits % 32] + out;
  return `${out.slice(0, 4)}-${out.slice(4)}`;
}

/**
 * The other way: the last ten hex digits of the id a reference was made from, or null when `text` is not a reference.
 * Read as a person pastes it: any case, with or without the dash, spaces anywhere, and Crockford's look-alikes (O for
 * 0, I and L for 1). Forty bits in, forty out, so a reference names exactly one id suffix; the id's first bits (its
 * time) are not in the reference, so a search matches `substr(id, 27)` (the id's last ten characters), not a prefix.
 */
export function loanIdSuffix(text: string): string | null {
  const code = text.replace(/[\s-]/g, '').toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== 8) return null;
  let bits = 0;
  for (const char of code) {
    const digit = CROCKFORD.indexOf(char);
    if (digit < 0) return null;
    bits = bits * 32 + digit;
  }
  return bits.toString(16).padStart(10, '0');
}
