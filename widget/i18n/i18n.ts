import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { enCommon, type MessageKey } from './en.ts';

/**
 * Every string the borrower reads goes through `t(key)`. English is built in (it is the source and
 * the last link of every fallback chain); the other tables are JSON files the checkout server
 * serves next to its JSON endpoints (`{api}/locales/{locale}.json`), fetched only when asked for, so
 * the script-tag bundle carries English alone. A key a table lacks falls back to English.
 */
export const LOCALES = ['en', 'pcm', 'yo', 'ha', 'ig'] as const;
export type Locale = (typeof LOCALES)[number];
export type Messages = Partial<Record<MessageKey, string>>;
export type { MessageKey };

export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  pcm: 'Naijá (Pidgin)',
  yo: 'Yorùbá',
  ha: 'Hausa',
  ig: 'Igbo',
};

/** `yo-NG` → `yo`, `pcm` → `pcm`, `fr` or nothing → `en`: the first supported language tag wins. */
export function resolveLocale(requested: string | readonly string[] | undefined | null): Locale {
  const tags = typeof requested === 'string' ? [requested] : (requested ?? []);
  for (const tag of tags) {
    const language = tag.trim().toLowerCase().split(/[-_]/)[0];
    if ((LOCALES as readonly string[]).includes(language!)) return language as Locale;
  }
  return 'en';
}

let active: Locale = 'en';
let table: Messages = {};
/** English: the common texts built in, the on-demand steps' own added when their file loads (`addEnglish`). */
const english: Messages = { ...enCommon };

/** Adds the on-demand steps' English texts (`steps-english.ts`): they travel in the steps file, not in the bundle. */
export const addEnglish = (messages: Messages): void => void Object.assign(english, messages);
const listeners = new Set<() => void>();

export const currentLocale = (): Locale => active;

/** `{name}` placeholders are replaced by `params.name`; a missing parameter stays visible. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const text = table[key] ?? english[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

type PluralBase = MessageKey extends infer K ? (K extends `${infer Base}.one` ? Base : never) : never;
const plurals = new Intl.PluralRules('en');

/** A text with a count: `{base}.one` or `{base}.other` (English plural rules; `{count}` is filled in). */
export function tp(base: PluralBase, count: number, params?: Record<string, string | number>): string {
  const form = plurals.select(count) === 'one' ? 'one' : 'other';
  return t(`${base}.${form}` as MessageKey, { count, ...params });
}

/**
 * A refused field of the checkout's requests (the API's name, as the server's message or `data.field` names it) →
 * the words the borrower reads: the step's own message about it, or (in `LABELLED`) its label in "Check “…”".
 * `fullName` (the guarantor's or the applicant's) and fields the borrower never types get "Check what you typed".
 */
const FIELD_TEXT: Record<string, MessageKey> = {
  code: 'error.otp_incorrect',
  accountNumber: 'error.account_number_invalid',
  bankCode: 'bank.bank',
  bvn: 'identity.error.bvn',
  nin: 'kyc.nin',
  dateOfBirth: 'identity.error.dateOfBirth',
  address: 'kyc.address',
  phone: 'guarantors.phone',
  relationship: 'guarantors.relationship',
  signatureFullName: 'offer.name',
  email: 'mandate.emailInvalid',
  signatureEmail: 'mandate.emailInvalid',
  declaredMonthlyIncomeKobo: 'identity.error.income',
};
const LABELLED = ['bankCode', 'nin', 'address', 'phone', 'relationship', 'signatureFullName'];

/** The API field a refusal is about (`data.field`, or the message's leading `body.email:`), or ''. */
export function refusedField(error: { message: string; data?: unknown }): string {
  const named = (error.data as { field?: unknown } | undefined)?.field;
  return (typeof named === 'string' ? named : /^(?:body\.)?([A-Za-z]\w*)[.:]/.exec(error.message)?.[1]) ?? '';
}

/**
 * The text for a server error, always the checkout's own: ours when the code is one we name; for a refused field,
 * the field in the borrower's words (never the server's `body.bvn: …`); the server's message only when it names
 * no field or code (a code name, a `body.` path or a snake_case code gets "Check what you typed" instead).
 */
export function errorText(error: { code: string; message: string; data?: unknown }): string {
  const key = `error.${error.code}`;
  if (key in english) return t(key as MessageKey);
  const field = refusedField(error);
  const text = FIELD_TEXT[field];
  if (text) return LABELLED.includes(field) ? t('error.field', { field: t(text) }) : t(text);
  return /\b[a-z]+[A-Z]\w*|\b(?:body|query)\.|\b[a-z]+_[a-z_]+\b/.test(error.message) || error.code === 'validation_failed' ? t('error.fields') : error.message;
}

/** Installs a table (English when `messages` is empty) and re-renders every connected component. */
export function useMessages(locale: Locale, messages: Messages): void {
  active = locale;
  table = locale === 'en' ? {} : messages;
  for (const listener of listeners) listener();
}

const loaded = new Map<string, Promise<Messages>>();


declare const __LC_LOCALE_FILES__: Record<string, string> | undefined;
/** The tables' content-hashed file names, in the script-tag build (served immutable, next to the bundle); other builds ask for `{locale}.json`. */
const LOCALE_FILES: Record<string, string> = typeof __LC_LOCALE_FILES__ === 'undefined' ? {} : __LC_LOCALE_FILES__;

/**
 * Switches language: English at once; any other table fetched once per base (and cached), then
 * installed. A table that fails to load leaves English in place and reports it, never throws into
 * the host page.
 */
export async function setLocale(requested: string | readonly string[] | undefined, base: string): Promise<Locale> {
  const locale = resolveLocale(requested);
  if (locale === 'en') {
    useMessages('en', {});
    return 'en';
  }
  const url = `${base.replace(/\/$/, '')}/locales/${LOCALE_FILES[locale] ?? `${locale}.json`}`;
  let pending = loaded.get(url);
  if (!pending) {
    pending = fetch(url, { credentials: 'omit' }).then((response) => {
      if (!response.ok) throw new Error(`locale ${locale}: HTTP ${response.status}`);
      return response.json() as Promise<Messages>;
    });
    loaded.set(url, pending);
  }
  try {
    useMessages(locale, await pending);
    return locale;
  } catch (error) {
    loaded.delete(url);
    console.warn('[LoanCheckout] could not load the %s texts; showing English', locale, error);
    useMessages('en', {});
    return 'en';
  }
}

/** Re-renders its host whenever the language changes. */
export class LocaleController implements ReactiveController {
  private readonly update = () => this.host.requestUpdate();
  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }
  hostConnected(): void {
    listeners.add(this.update);
  }
  hostDisconnected(): void {
    listeners.delete(this.update);
  }
}
