/**
 * @simplewebauthn/server (some 4 MB of heap) is loaded with the first passkey request, not at
 * startup: most processes never verify a passkey.
 */
let webauthn: Promise<typeof import('@simplewebauthn/server')> | undefined;

export const loadWebAuthn = (): Promise<typeof import('@simplewebauthn/server')> => (webauthn ??= import('@simplewebauthn/server'));
