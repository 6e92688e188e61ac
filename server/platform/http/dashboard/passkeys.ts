import type { DashboardArea } from './kit';

/** Passkeys of the signed-in user: register, list, remove; passkey sign-in. */
export const passkeysRoutes: DashboardArea = (_router, _kit) => {};
