import {
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { CheckoutApiError } from './checkout-api';

/**
 * The passkey ceremonies (@simplewebauthn/browser, about 4 KB gzipped): part of the on-demand steps
 * file (`steps.ts` registers them with `passkeys.ts`), since only borrowers who make or use a
 * passkey need them.
 */

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
