import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import minifyHtmlLiterals from '@lit-labs/rollup-plugin-minify-html-literals';
import { cssStringsPlugin } from '../build/vite-css-strings.ts';
import { staticAssetsPlugin } from '../vite-static-assets.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The borrower's loan page (`/my-loan` of the checkout server): its own ES module (Lit, the checkout's `<lc-otp>`,
 * i18n and design tokens bundled in), built to dist/my-loan/my-loan.js with content-hashed, precompressed copies and
 * a manifest. Separate from the checkout's script-tag bundle, whose size budget it must not touch. The languages other
 * than English are the checkout's own files (`<mount>/api/locales/<locale>.json`).
 */
export default defineConfig({
  // Always the production builds of dependencies (Lit's dev mode is larger and warns), whatever NODE_ENV the build runs under.
  resolve: { conditions: ['module', 'browser', 'production'] },
  root,
  plugins: [cssStringsPlugin(), minifyHtmlLiterals({ options: { minifyOptions: { removeAttributeQuotes: true } } }), staticAssetsPlugin()],
  build: {
    outDir: path.join(root, 'dist/my-loan'),
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: path.join(root, 'widget/my-loan/index.ts'), formats: ['es'], fileName: () => 'my-loan.js' },
    reportCompressedSize: false,
  },
});
