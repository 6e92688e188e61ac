/** The sandbox rail provider's records, as its router and pages see them (rows never leave the provider). */

import type { SandboxRailAuthorisationsTable, SandboxRailChargesTable } from '../../platform/db/schema';
import type { ProviderAuthorisationStatus, ProviderChargeStatus, RailName } from './payment-rail';

export const RAIL_NAMES: readonly RailName[] = ['rail_a', 'rail_b'];
export const isRailName = (value: string): value is RailName => (RAIL_NAMES as readonly string[]).includes(value);

export type AuthorisationRow = SandboxRailAuthorisationsTable;
export type ChargeRow = SandboxRailChargesTable;

export interface AuthorisationRecord {
  providerReference: string;
  rail: RailName;
  reference: string;
  status: ProviderAuthorisationStatus;
  /** Null unless `active`. */
  authorizationCode: string | null;
  email: string;
  accountNumberMasked: string | null;
  bankCode: string | null;
  amountKobo: number;
  callbackUrl: string | null;
  approvedAt: string | null;
  confirmedAt: string | null;
  refusedAt: string | null;
  cancelledAt: string | null;
  createdAt: string;
}

export interface ChargeRecord {
  chargeReference: string;
  rail: RailName;
  reference: string;
  providerReference: string;
  amountKobo: number;
  status: ProviderChargeStatus;
  failureReason: string | null;
  completedAt: string | null;
  createdAt: string;
}

export interface NewAuthorisation {
  reference: string;
  email: string;
  accountNumber?: string | null;
  bankCode?: string | null;
  amountKobo: number;
  callbackUrl?: string | null;
}

export interface NewCharge {
  authorizationCode: string;
  amountKobo: number;
  reference: string;
}

export type Decision = 'approve' | 'refuse';

export const maskAccountNumber = (accountNumber: string): string => `******${accountNumber.slice(-4)}`;


export function toAuthorisation(row: AuthorisationRow): AuthorisationRecord {
  const status = row.status as ProviderAuthorisationStatus;
  return {
    providerReference: row.providerReference,
    rail: row.rail as RailName,
    reference: row.reference,
    status,
    authorizationCode: status === 'active' ? row.authorizationCode : null,
    email: row.email,
    accountNumberMasked: row.accountNumberMasked,
    bankCode: row.bankCode,
    amountKobo: row.amountKobo,
    callbackUrl: row.callbackUrl,
    approvedAt: row.approvedAt,
    confirmedAt: row.confirmedAt,
    refusedAt: row.refusedAt,
    cancelledAt: row.cancelledAt,
    createdAt: row.createdAt,
  };
}

export function toCharge(row: ChargeRow): ChargeRecord {
  return {
    chargeReference: row.chargeReference,
    rail: row.rail as RailName,
    reference: row.reference,
    providerReference: row.providerReference,
    amountKobo: row.amountKobo,
    status: row.status as ProviderChargeStatus,
    failureReason: row.failureReason,
    completedAt: row.completedAt,
    createdAt: row.createdAt,
  };
}
