import type { Logger } from 'pino';
import type { Db } from '../db/database';
import type { CreditPolicy } from './financing/credit-policy';
import type { PerMode } from './per-mode';
import type { AmlScreening, Bank, BankLookup, BvnIdentity, Clock, CreditBureau, FileStorage, IdentityVerifier, Insurer, PaymentRails, SmsSender, SpeechToText, Summariser } from './ports';
import type { Secrets } from './secrets';

/**
 * The settings the domain reads. The keys keep the names of the environment variables they come
 * from (`.env.example`), so a rule can be traced to its setting; the composition root passes the
 * parsed configuration, and the domain never sees the rest of it.
 */
export interface DomainSettings {
  OFFER_LETTER_LINK_TTL_SECONDS: number;
  CHECKOUT_PLATFORM_NAME: string;
  CHECKOUT_SESSION_TTL_MINUTES: number;
  CHECKOUT_SESSION_MAX_LIFETIME_MINUTES: number;
  FINANCING_APPLICATION_TTL_HOURS: number;
  FINANCING_POLICY: CreditPolicy;
  INSURANCE_COMMISSION_BPS: number;
  COLLECTION_RETRY_HOURS: number;
  DEFAULT_AFTER_DAYS_OVERDUE: number;
  APPOINTMENT_OVERRUN_MINUTES: number;
  APPOINTMENT_RECORDING_DELAY_SECONDS: number;
  APPOINTMENT_SUMMARY_DELAY_SECONDS: number;
  APPOINTMENT_TEST_RECORDING_DELAY_SECONDS: number;
  APPOINTMENT_TEST_SUMMARY_DELAY_SECONDS: number;
}

/**
 * What the domain's use cases run with, declared by the domain: the database, the time, the keys,
 * the settings and one adapter (or one adapter per mode) for every port. The composition root's
 * `Platform` satisfies it; use cases ask for the parts they need with `Pick<Services, …>`.
 */
export interface Services {
  db: Db;
  clock: Clock;
  secrets: Secrets;
  logger: Logger;
  settings: DomainSettings;
  /** Public origin for links the service hands out. */
  baseUrl: string;
  /** Per mode inside: the sandbox in test mode; live mode answers `pending` (never `clear`) without a provider. */
  aml: AmlScreening;
  rails: PaymentRails;
  identity: PerMode<IdentityVerifier>;
  bvnIdentity: PerMode<BvnIdentity>;
  bureau: PerMode<CreditBureau>;
  bankLookup: PerMode<BankLookup>;
  /** The bank directory the checkout offers and validates against (static data, the same in both modes). */
  banks: readonly Bank[];
  sms: PerMode<SmsSender>;
  insurer: PerMode<Insurer>;
  files: FileStorage;
  summariser: Summariser;
  speechToText?: SpeechToText;
}
