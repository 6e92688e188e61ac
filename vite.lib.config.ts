import { defineConfig } from 'vite';

/**
 * The checkout widget for bundlers (`npm run build:widget` builds it after the script tag's IIFE):
 * ES modules in dist/widget-lib — `index.js` (the `LoanCheckout` API, elements in a lazily loaded
 * chunk, safe to import during server-side rendering) and `react.js` (the `@lit/react` wrapper; React
 * is the partner's own).
 */
export default defineConfig({
  // Always the production builds of dependencies (Lit's dev mode is larger and warns), whatever NODE_ENV the build runs under (tests run it under `test`).
  resolve: { conditions: ['module', 'browser', 'production'] },
  build: {
    outDir: 'dist/widget-lib',
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: { index: 'widget/embed/module.ts', react: 'widget/react/index.ts' }, formats: ['es'], fileName: (_format, name) => `${name}.js` },
    rollupOptions: { external: ['react', 'react/jsx-runtime'] },
    reportCompressedSize: false,
  },
});
