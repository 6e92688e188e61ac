/** Vite's `?inline` import of a stylesheet: its text (adopted into a shadow root with `unsafeCSS`). */
declare module '*.css?inline' {
  const text: string;
  export default text;
}
