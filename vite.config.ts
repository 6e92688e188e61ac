import { defineConfig } from 'vite';
import { localesPlugin } from './widget/i18n/vite-locales.ts';
import { staticAssetsPlugin } from './widget/vite-static-assets.ts';
import minifyHtmlLiterals from '@lit-labs/rollup-plugin-minify-html-literals';
import { cssStringsPlugin } from './widget/build/vite-css-strings.ts';
import { stepsPlugin } from './widget/vite-steps.ts';

/** The transforms both the main bundle and the on-demand steps file go through (the 30 KB budget: Lit's html`` templates and the styles' CSS strings lose the whitespace the browser ignores). */
const transforms = () => [cssStringsPlugin(), minifyHtmlLiterals({ options: { minifyOptions: { removeAttributeQuotes: true } } })];

/**
 * The checkout widget for the script tag: one IIFE with Lit and the `lc-*` elements of the common path,
 * installing the `LoanCheckout` global, served by the checkout server at `/widget.js` (built to
 * dist/widget/checkout.js; the hosted page loads the same file under its content-hashed name from
 * `/assets/`, as a module script, which an IIFE also is). The ES module and React builds
 * for bundlers are `vite.lib.config.ts`. The rarer steps are built first into their own file
 * (`checkout-steps.<hash>.js`, see `widget/vite-steps.ts`), loaded by the bundle on first need.
 */
export default defineConfig({
  // Always the production builds of dependencies (Lit's dev mode is larger and warns), whatever NODE_ENV the build runs under (tests run it under `test`).
  resolve: { conditions: ['module', 'browser', 'production'] },
  // The 30 KB budget: Lit's html`` templates and the styles' CSS strings lose the whitespace the browser ignores.
  // The locale files and the bundle also get content-hashed, precompressed (brotli, gzip) copies and a manifest.
  plugins: [localesPlugin(), ...transforms(), staticAssetsPlugin(), stepsPlugin({ plugins: transforms })],
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: 'widget/embed/script.ts', formats: ['iife'], name: 'LoanCheckoutScript', fileName: () => 'checkout.js' },
    reportCompressedSize: false,
  },
});
