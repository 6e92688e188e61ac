import { defineConfig } from 'vite';
import { localesPlugin } from './widget/i18n/vite-locales.ts';

/**
 * The checkout widget: one ES module with Lit bundled in, served by the checkout server at
 * `/checkout/widget.js` (built to dist/widget/checkout.js).
 */
export default defineConfig({
  plugins: [localesPlugin()],
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: 'widget/index.ts', formats: ['es'], fileName: () => 'checkout.js' },
    reportCompressedSize: false,
  },
});
