/**
 * Paste-tolerant inputs. What people paste or type carries spaces and dashes ("0123 456 785",
 * "477-707", "+234 803 123 4567"); every step cleans a value first and only then applies its
 * length limit. So these inputs carry no `maxlength` (the browser would cut a pasted value before
 * it is cleaned): the `input` handler rewrites the field with the cleaned value instead.
 */

/** Keeps the digits, then at most `max` of them. */
export const digits = (raw: string, max?: number): string => raw.replace(/\D/g, '').slice(0, max);

/** A phone number as typed or pasted: a leading `+` and at most 15 digits (E.164). */
export const phoneNumber = (raw: string): string => (raw.trim().startsWith('+') ? '+' : '') + digits(raw, 15);

/**
 * An `input` event handler that rewrites its field with `clean(value)` (the caret goes to the end,
 * where typing happens) and hands the cleaned value to `then`.
 */
export const cleanInput =
  (clean: (raw: string) => string, then?: (value: string) => void) =>
  (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const value = clean(input.value);
    if (value !== input.value) input.value = value;
    then?.(value);
  };
