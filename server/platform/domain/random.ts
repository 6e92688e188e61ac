/** The pooled CSPRNG, shared with the adapters: `server/shared/random.ts`. */
export * from '../../shared/random';
