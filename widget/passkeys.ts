import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { loadOnDemand } from './steps-loader';

export type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON };

/** How long feature detection may take before the checkout moves on without passkeys. */
const DETECTION_TIMEOUT_MS = 1500;

/** WebAuthn is there (a secure context, not a webview that strips it). */
export const browserSupportsWebAuthn = (): boolean => typeof globalThis.PublicKeyCredential === 'function';

/**
 * Whether this browser can make and use a passkey on this device: WebAuthn present and a
 * user-verifying platform authenticator. Never throws and never waits long: anything else means
 * "no passkeys", and the typed name signs.
 */
export async function devicePasskeysAvailable(): Promise<boolean> {
  if (!browserSupportsWebAuthn()) return false;
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), DETECTION_TIMEOUT_MS));
  return Promise.race([PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable().catch(() => false), timeout]);
}

/** The ceremonies themselves (`webauthn.ts`), registered by the on-demand steps file when it runs. */
export interface Ceremonies {
  createPasskey(options: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON>;
  usePasskey(options: PublicKeyCredentialRequestOptionsJSON): Promise<AuthenticationResponseJSON>;
}
let ceremonies: Ceremonies | undefined;

export function registerCeremonies(registered: Ceremonies): void {
  ceremonies = registered;
}

/**
 * The ceremonies, loading the steps file first when they are not here yet (the script-tag bundle).
 * Call it early (when a passkey button shows) so the tap that starts a ceremony does not wait.
 */
export async function passkeyCeremonies(apiBase: string): Promise<Ceremonies> {
  if (!ceremonies) await loadOnDemand(apiBase);
  if (!ceremonies) throw new Error('the passkey ceremonies are not available');
  return ceremonies;
}
