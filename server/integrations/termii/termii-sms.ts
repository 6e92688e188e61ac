import { z } from 'zod';
import type { Mode } from '../../platform/db/schema';
import { ProviderError, ProviderHttp, type ProviderHttpOptions } from '../provider-http';
import type { SmsMessage, SmsSender } from '../sms';

/**
 * `SmsSender` over Termii's Messaging API: `POST {baseUrl}/api/sms/send` with the JSON body
 * `{ api_key, to, from, sms, type: "plain", channel }` (https://developers.termii.com/messaging-api).
 * `to` is the international format without `+` (`2348012345678`); success is a 200 `{ code: "ok", message_id,
 * message, balance, user }`.
 *
 * Channel: `dnd` by default. Termii's docs say the generic route is for promotional traffic only and "should
 * not be used for sending OTP or transactional messages": it does not deliver to numbers on Do-Not-Disturb
 * and, for MTN Nigeria, not between 8 PM and 8 AM WAT; the DND (transactional) route delivers to every number
 * at any hour. The DND route must be activated on the Termii account (ask Termii support) — until it is,
 * Termii answers "You are not set up on this route" (`termii_route_not_set_up` here).
 *
 * Base URL: Termii now shows each account its own base URL on the dashboard; https://api.ng.termii.com is the
 * Nigerian one used throughout the docs and is the default. Override with `baseUrl`.
 *
 * Not idempotent: Termii has no idempotency key, so a send that timed out may still be delivered. It is sent
 * once and never retried automatically (a retry could text the code twice, and the second text would be the
 * one the borrower reads last); a timeout throws `ProviderError` with `outcomeUnknown: true` and the caller
 * decides (asking the borrower to request a new code is the safe answer). The circuit breaker still applies.
 *
 * Errors (https://developers.termii.com/error): 401 no valid key, 403 key without permission, 404/400/422 with a
 * `message` among the documented common errors ("Invalid Sender Id", "Your account is not active", "You are not
 * set up on this route", "Your device has reached the daily limit", insufficient balance), 429, 5xx. They become
 * the fixed codes below; the provider's text is never copied into our message, and neither the phone number nor
 * the message text ever appears in an error.
 */
export const TERMII_DEFAULT_URL = 'https://api.ng.termii.com';

export type TermiiErrorCode =
  | 'termii_unauthorized'
  | 'termii_forbidden'
  | 'termii_invalid_sender'
  | 'termii_insufficient_balance'
  | 'termii_account_inactive'
  | 'termii_route_not_set_up'
  | 'termii_daily_limit'
  | 'termii_rate_limited'
  | 'termii_server_error'
  | 'termii_rejected';

const DESCRIPTIONS: Record<TermiiErrorCode, string> = {
  termii_unauthorized: 'Termii refused the API key (check TERMII_API_KEY and that the base URL is the one on the Termii dashboard, over https)',
  termii_forbidden: 'the Termii API key may not send messages',
  termii_invalid_sender: 'the sender ID is not registered on the Termii account (check TERMII_SENDER_ID)',
  termii_insufficient_balance: 'the Termii balance is too low; top it up on the Termii dashboard',
  termii_account_inactive: 'the Termii account is not active; contact Termii',
  termii_route_not_set_up: 'the Termii account is not set up on this route (activate the DND route with Termii support)',
  termii_daily_limit: 'the Termii daily message limit is reached',
  termii_rate_limited: 'Termii rate limit reached',
  termii_server_error: 'Termii failed on its side',
  termii_rejected: 'Termii rejected the message',
};

/** Termii's `{ message }` (sometimes with a `code`) → a fixed code and description. */
export function termiiErrorOf(status: number, body: unknown): { code: TermiiErrorCode; message: string } {
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const text = [record.message, record.error].filter((v): v is string => typeof v === 'string').join(' ');
  const code: TermiiErrorCode =
    status === 401
      ? 'termii_unauthorized'
      : status === 403
        ? 'termii_forbidden'
        : status === 429
          ? 'termii_rate_limited'
          : status >= 500
            ? 'termii_server_error'
            : /sender/i.test(text)
              ? 'termii_invalid_sender'
              : /balance|insufficient|fund/i.test(text)
                ? 'termii_insufficient_balance'
                : /not active|deactivated|disabled/i.test(text)
                  ? 'termii_account_inactive'
                  : /route/i.test(text)
                    ? 'termii_route_not_set_up'
                    : /daily limit/i.test(text)
                      ? 'termii_daily_limit'
                      : /unauthori[sz]ed|api key/i.test(text)
                        ? 'termii_unauthorized'
                        : 'termii_rejected';
  return { code, message: DESCRIPTIONS[code] };
}

const SendAnswer = z.object({ code: z.string(), message_id: z.union([z.string(), z.number()]).optional() });

/** The shared client's timeout and breaker settings (never retries: a text is not sent twice blindly), plus Termii's. */
export interface TermiiSmsOptions extends Pick<ProviderHttpOptions, 'timeoutMs' | 'breakerThreshold' | 'halfOpenAfterMs'> {
  apiKey: string;
  /** A sender ID registered on the Termii account (3–11 characters). */
  senderId: string;
  baseUrl?: string;
  /** `dnd` (default, see above) or `generic`. */
  channel?: 'dnd' | 'generic';
  /** Modes this sender accepts; defaults to live only, so a test-mode text never reaches a real phone. */
  modes?: Mode[];
}

export class TermiiSms implements SmsSender {
  private readonly http: ProviderHttp;
  private readonly channel: 'dnd' | 'generic';
  private readonly modes: Mode[];

  constructor(private readonly options: TermiiSmsOptions) {
    this.channel = options.channel ?? 'dnd';
    this.modes = options.modes ?? ['live'];
    this.http = new ProviderHttp({
      provider: 'termii',
      baseUrl: options.baseUrl ?? TERMII_DEFAULT_URL,
      timeoutMs: options.timeoutMs,
      maxAttempts: 1,
      breakerThreshold: options.breakerThreshold,
      halfOpenAfterMs: options.halfOpenAfterMs,
    });
  }

  get circuitState(): ProviderHttp['circuitState'] {
    return this.http.circuitState;
  }

  async send(message: SmsMessage): Promise<void> {
    if (!this.modes.includes(message.mode)) throw new Error(`the Termii sender does not send ${message.mode}-mode messages`);
    const to = message.to.replace(/[^\d]/g, '');
    if (!/^[1-9]\d{9,14}$/.test(to)) {
      throw new ProviderError('termii', 'termii_invalid_number', 'termii: could not send the text: the phone number is not in international format.', null, false, false);
    }
    const answer = await this.http.request({
      action: 'send the text',
      method: 'POST',
      path: '/api/sms/send',
      body: { api_key: this.options.apiKey, to, from: this.options.senderId, sms: message.body, type: 'plain', channel: this.channel },
      schema: SendAnswer,
      idempotent: false,
      errorOf: termiiErrorOf,
    });
    if (answer.code.toLowerCase() !== 'ok') {
      throw new ProviderError('termii', 'termii_rejected', `termii: could not send the text: ${DESCRIPTIONS.termii_rejected} (answer code is not "ok").`, 200, false, false);
    }
  }
}
