import path from 'node:path';
import { defineConfig } from 'vite';
import { staticAssetsPlugin } from '../widget/vite-static-assets.ts';

/**
 * The sales demo page: one ES module with Lit bundled in, served by the demo router at
 * `/demo/assets/demo.js` (built to dist/demo/demo.js by `npm run build:demo`).
 */
export default defineConfig({
  // Always the production builds of dependencies (Lit's dev mode is larger and warns), whatever NODE_ENV the build runs under (tests run it under `test`).
  resolve: { conditions: ['module', 'browser', 'production'] },
  root: path.resolve(import.meta.dirname, '..'),
  // Precompressed (brotli, gzip) copies and a manifest, served by Accept-Encoding.
  plugins: [staticAssetsPlugin()],
  build: {
    outDir: 'dist/demo',
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: 'demo/app/index.ts', formats: ['es'], fileName: () => 'demo.js' },
    reportCompressedSize: false,
  },
});
