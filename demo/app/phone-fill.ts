import { nubanCheckDigit } from '../../server/shared/nuban';

/**
 * One-tap fills for the demo's phone: the presenter never types. The phone is a same-origin iframe
 * showing the real hosted checkout, so the page reaches into it and gives each box its value the
 * way a keyboard would: focus, set the value, then a real `input` event (and `change` on leaving),
 * so the checkout's own handlers (cleaning, lookups, validation) run exactly as if it were typed.
 * Nothing here submits: the borrower's own buttons (Verify, Sign, This is my account) stay taps in
 * the phone.
 *
 * The boxes are found by the ids the checkout's steps give them (`lc-otp-code`, `lc-offer-name`,
 * `lc-bank-code`, `lc-bank-number`, `lc-kyc-bvn`), through any open shadow root.
 */
export type PhoneField = 'code' | 'signature' | 'bank' | 'bvn';

const FIELD_IDS: Record<PhoneField, string> = {
  code: 'lc-otp-code',
  signature: 'lc-offer-name',
  bank: 'lc-bank-number',
  bvn: 'lc-kyc-bvn',
};

/** The sandbox's happy-path bank: any ordinary serial resolves to the borrower's own name (`SandboxBankLookup`). */
export const SANDBOX_BANK = { code: '058', name: 'Guaranty Trust Bank', serial: '012345678' } as const;
/**
 * The sandbox's magic serial for "the account belongs to someone else" (`SANDBOX_ACCOUNT_SERIALS.someoneElse`,
 * documented with the sandbox's bank lookup): the checkout then shows its name-mismatch warning.
 */
export const SANDBOX_SOMEONE_ELSES_SERIAL = '777777777';

/** A full NUBAN for the sandbox bank: the serial and its check digit. */
export const sandboxAccountNumber = (serial: string = SANDBOX_BANK.serial) => `${serial}${nubanCheckDigit(SANDBOX_BANK.code, serial)}`;

/** The element with this id in `root` or any open shadow root below it. */
function deepById(root: Document | ShadowRoot, id: string): HTMLElement | null {
  const direct = root.getElementById?.(id) ?? root.querySelector<HTMLElement>(`#${id}`);
  if (direct) return direct;
  for (const el of root.querySelectorAll('*')) {
    const found = el.shadowRoot ? deepById(el.shadowRoot, id) : null;
    if (found) return found;
  }
  return null;
}

/** An enabled, shown input of the phone's current screen, or null. */
function usableInput(doc: Document | null | undefined, id: string): HTMLInputElement | null {
  if (!doc) return null;
  const el = deepById(doc, id);
  if (!el || el.tagName !== 'INPUT') return null;
  const input = el as HTMLInputElement;
  return !input.disabled && input.getClientRects().length > 0 ? input : null;
}

/** Which of the fillable boxes the phone's current screen shows. */
export function fieldsOnScreen(doc: Document | null | undefined): Set<PhoneField> {
  const shown = new Set<PhoneField>();
  for (const [field, id] of Object.entries(FIELD_IDS) as Array<[PhoneField, string]>) {
    if (usableInput(doc, id)) shown.add(field);
  }
  // The bank step needs its list loaded (the bank box is disabled until then).
  if (shown.has('bank') && !usableInput(doc, 'lc-bank-code')) shown.delete('bank');
  return shown;
}

/** The frame's own constructors: events made with the page's would still work, but these are the frame's own kind. */
const viewOf = (input: HTMLInputElement) => input.ownerDocument.defaultView ?? window;

/** Gives `input` its value as typing would: focus, value, `input` (what the checkout listens to), `change`. */
function typeInto(input: HTMLInputElement, value: string): void {
  const view = viewOf(input);
  input.focus();
  input.value = value;
  input.dispatchEvent(new view.InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: value }));
  input.dispatchEvent(new view.Event('change', { bubbles: true }));
}

/** Resolves once the frame has rendered what an event changed (its next animation frame, twice). */
const nextFrames = (input: HTMLInputElement) =>
  new Promise<void>((resolve) => {
    const view = viewOf(input);
    view.requestAnimationFrame(() => view.requestAnimationFrame(() => resolve()));
  });

function required(doc: Document | null | undefined, field: PhoneField): HTMLInputElement {
  const input = usableInput(doc, FIELD_IDS[field]);
  if (!input) throw new Error('That box is not on the phone’s screen right now.');
  return input;
}

export function fillCode(doc: Document | null | undefined, code: string): void {
  typeInto(required(doc, 'code'), code);
}

export function fillSignature(doc: Document | null | undefined, name: string): void {
  typeInto(required(doc, 'signature'), name);
}

export function fillBvn(doc: Document | null | undefined, bvn: string): void {
  typeInto(required(doc, 'bvn'), bvn);
}

/**
 * Picks the sandbox bank in the checkout's bank box (its name typed, then its option tapped, as a
 * borrower would) and types the account number, which starts the checkout's own name lookup.
 */
export async function fillBank(doc: Document | null | undefined, accountNumber: string): Promise<void> {
  const number = required(doc, 'bank');
  const bank = usableInput(doc, 'lc-bank-code');
  if (!bank) throw new Error('The bank list is still loading in the phone.');
  typeInto(bank, SANDBOX_BANK.name);
  await nextFrames(bank);
  const option = deepById(doc!, `lc-bank-${SANDBOX_BANK.code}`);
  if (!option) throw new Error(`${SANDBOX_BANK.name} is not in the phone’s bank list.`);
  option.click();
  await nextFrames(bank);
  typeInto(number, accountNumber);
  number.blur();
}
