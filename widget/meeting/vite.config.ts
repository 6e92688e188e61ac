import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { staticAssetsPlugin } from '../vite-static-assets.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The telemedicine meeting page: its own ES module (Lit bundled in), served at `/meet/meeting.js`
 * from dist/meeting/meeting.js. Separate from the checkout bundle (dist/widget/checkout.js), whose
 * size budget it must not touch.
 */
export default defineConfig({
  // Always the production builds of dependencies (Lit's dev mode is larger and warns), whatever NODE_ENV the build runs under (tests run it under `test`).
  resolve: { conditions: ['module', 'browser', 'production'] },
  root,
  // Precompressed (brotli, gzip) copies and a manifest, served by Accept-Encoding.
  plugins: [staticAssetsPlugin()],
  build: {
    outDir: path.join(root, 'dist/meeting'),
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: path.join(root, 'widget/meeting/index.ts'), formats: ['es'], fileName: () => 'meeting.js' },
    reportCompressedSize: false,
  },
});
