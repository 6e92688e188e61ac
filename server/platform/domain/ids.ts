/** Ids are pure functions of the clock and the CSPRNG, shared with the adapters: `server/shared/ids.ts`. */
export * from '../../shared/ids';
