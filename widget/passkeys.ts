import {
  browserSupportsWebAuthn,
  platformAuthenticatorIsAvailable,
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { CheckoutApiError } from './checkout-api';

export { browserSupportsWebAuthn };
export type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON };

/** How long feature detection may take before the checkout moves on without passkeys. */
const DETECTION_TIMEOUT_MS = 1500;

/**
 * Whether this browser can make and use a passkey on this device: WebAuthn present (secure
 * context, not a webview that strips it) and a user-verifying platform authenticator. Never
 * throws and never waits long: anything else means "no passkeys", and the typed name signs.
 */
export async function devicePasskeysAvailable(): Promise<boolean> {
  if (!browserSupportsWebAuthn()) return false;
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), DETECTION_TIMEOUT_MS));
  return Promise.race([platformAuthenticatorIsAvailable().catch(() => false), timeout]);
}

/** The browser's passkey errors as the checkout's own error type, with a message that always offers the way out. */
function ceremonyError(error: unknown): CheckoutApiError {
  const name = (error as { name?: string })?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return new CheckoutApiError(0, 'passkey_cancelled', 'The passkey prompt was closed. You can try again, or continue without a passkey.');
  }
  return new CheckoutApiError(0, 'passkey_unavailable', 'This device could not use a passkey. You can continue without one.');
}

export async function createPasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON> {
  try {
    return await startRegistration({ optionsJSON });
  } catch (error) {
    throw ceremonyError(error);
  }
}

export async function usePasskey(optionsJSON: PublicKeyCredentialRequestOptionsJSON): Promise<AuthenticationResponseJSON> {
  try {
    return await startAuthentication({ optionsJSON });
  } catch (error) {
    throw ceremonyError(error);
  }
}
