import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { en, type MessageKey } from './en.ts';

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
const listeners = new Set<() => void>();

export const currentLocale = (): Locale => active;

/** `{name}` placeholders are replaced by `params.name`; a missing parameter stays visible. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const text = table[key] ?? en[key];
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

/** The text for a server error: ours when the code is one we name, else the server's message. */
export function errorText(error: { code: string; message: string }): string {
  const key = `error.${error.code}`;
  return key in en ? t(key as MessageKey) : error.message;
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
