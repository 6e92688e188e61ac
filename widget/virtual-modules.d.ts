/** The on-demand files' content-hashed names by stable name, provided by the script-tag build (`widget/vite-steps.ts`). */
declare module 'virtual:lc-steps-file' {
  const files: Record<import('./steps-shared').OnDemandFile, string>;
  export default files;
}
