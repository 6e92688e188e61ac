import { loadOnce } from './load-once';

/**
 * @simplewebauthn/server (some 4 MB of heap) is loaded with the first passkey request, not at
 * startup: most processes never verify a passkey.
 */
export const loadWebAuthn: () => Promise<typeof import('@simplewebauthn/server')> = loadOnce(() => import('@simplewebauthn/server'));
