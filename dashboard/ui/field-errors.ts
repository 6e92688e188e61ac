import { html, nothing } from 'lit';
import { DashboardApiError } from '../api';
import { inFormWords } from '../plain-words';

/**
 * A refusal shown beside the field it is about, in that field's own words. The server names the refused field as
 * `data.field` or as the message's first word (`minAmountKobo: must not exceed maxAmountKobo`, `body.code: …`);
 * every API field name in the message is replaced with its label on the form (`Smallest loan (₦)`), so a person
 * never reads `…Kobo` for a field they typed in naira.
 */
export interface FieldError {
  /** The API field, or undefined when the refusal is about the whole form. */
  field: string | undefined;
  message: string;
}

export function fieldError(error: unknown, labels: Record<string, string>, fallback = 'Saving failed; try again.'): FieldError {
  if (!(error instanceof DashboardApiError)) return { field: undefined, message: fallback };
  const data = error.data as { field?: unknown } | undefined;
  // The server's own words (`error.message` is already in plain words, without the form's labels).
  const raw = error.serverMessage;
  const prefix = /^(?:body\.|query\.)?([A-Za-z][\w.]*): (.*)$/s.exec(raw);
  const named = typeof data?.field === 'string' ? data.field : prefix?.[1];
  // A nested field the form labels itself (`reminders.leadDays`), else the top-level field it belongs to.
  const field = named && labels[named] ? named : named && labels[named.split('.')[0]!] ? named.split('.')[0] : undefined;
  const message = field && prefix ? prefix[2]! : raw;
  return { field, message: inFormWords(message, labels) };
}

/** The error line under a field (`id` is the control's id); the control names it in `aria-describedby`. */
export const fieldErrorLine = (id: string, message: string | undefined) =>
  message ? html`<p class="field-error error" id="${id}-error">${message}</p>` : nothing;

/** `aria-describedby` for a control with an optional hint and an optional error. */
export const describedBy = (id: string, hint: boolean, error: boolean): string | typeof nothing =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || nothing;
