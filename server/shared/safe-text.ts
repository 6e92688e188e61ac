import { z } from 'zod';

/**
 * Characters a name may not hold: C0 and C1 controls (NUL included: PostgreSQL refuses it in text)
 * and the bidirectional formatting characters (U+061C, U+200E/U+200F marks, U+202A–U+202E
 * embeddings and overrides, U+2066–U+2069 isolates), which can make a name read differently in an
 * SMS, a PDF or a dashboard than it is stored ("Trojan Source"-style spoofing).
 */
export const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export const UNSAFE_TEXT_MESSAGE = 'must not contain control characters or bidirectional formatting characters (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C)';

/**
 * A person's or an organisation's name: checked for unsafe characters before trimming (a tab at
 * the edge is refused too, not silently dropped), then trimmed and bounded. Invalid input answers
 * 400 `invalid_request` naming the field (`body.borrower.firstName: must not contain …`).
 */
export function safeName(options: { min?: number; max: number }) {
  return z
    .string()
    .refine((value) => !UNSAFE_TEXT.test(value), UNSAFE_TEXT_MESSAGE)
    .trim()
    .min(options.min ?? 1)
    .max(options.max);
}
