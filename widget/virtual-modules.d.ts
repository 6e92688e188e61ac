/** The steps file's content-hashed name, provided by the script-tag build (`widget/vite-steps.ts`). */
declare module 'virtual:lc-steps-file' {
  const file: string;
  export default file;
}
