import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';
import { DashboardApiError } from '../api';

/**
 * The browser's passkey ceremonies for the dashboard (@simplewebauthn/browser, loaded on first use so the initial
 * bundle does not carry it). Browser errors become `DashboardApiError`s whose message says what to do instead.
 */
const load = () => import('@simplewebauthn/browser');

/** Whether this browser can make and use passkeys at all. */
export const passkeysSupported = (): boolean => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** WebAuthn needs a host name: a dashboard reached by IP address cannot use passkeys (the server's RP ID is a name). */
export const onIpAddress = (): boolean => /^[\d.]+$/.test(location.hostname) || location.hostname.includes(':') || location.hostname.startsWith('[');

function ceremonyError(error: unknown): DashboardApiError {
  const name = (error as { name?: string })?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return new DashboardApiError(0, 'passkey_cancelled', 'The passkey prompt was closed or timed out. Try again, or use your password.');
  }
  if (name === 'InvalidStateError') return new DashboardApiError(0, 'passkey_exists', 'This device already holds a passkey for your account.');
  return new DashboardApiError(0, 'passkey_unavailable', 'This browser or device could not use a passkey. Use your password instead.');
}

export async function createPasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await load();
  try {
    return await startRegistration({ optionsJSON });
  } catch (error) {
    throw ceremonyError(error);
  }
}

export async function usePasskey(optionsJSON: PublicKeyCredentialRequestOptionsJSON): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await load();
  try {
    return await startAuthentication({ optionsJSON });
  } catch (error) {
    throw ceremonyError(error);
  }
}
