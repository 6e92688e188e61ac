import { defineConfig } from 'vite';

/**
 * The checkout widget: one ES module with Lit bundled in, served by the checkout server at
 * `/checkout/widget.js` (built to dist/widget/checkout.js).
 */
export default defineConfig({
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: 'widget/index.ts', formats: ['es'], fileName: () => 'checkout.js' },
    reportCompressedSize: false,
  },
});
