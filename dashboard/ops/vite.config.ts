import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { staticAssetsPlugin } from '../../widget/vite-static-assets.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The operations console (`/ops`): its own ES module bundle at `/ops/assets/ops.js`, built from `dashboard/ops/` on
 * the dashboard's UI kit (`dashboard/ui`, `dashboard/api.ts`), separate from the dashboard's bundle and budget.
 */
export default defineConfig({
  resolve: { conditions: ['module', 'browser', 'production'] },
  root,
  plugins: [staticAssetsPlugin()],
  build: {
    outDir: path.join(root, 'dist/ops'),
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: path.join(root, 'dashboard/ops/main.ts'), formats: ['es'], fileName: () => 'ops.js' },
    rollupOptions: { output: { chunkFileNames: '[name]-[hash].js' } },
    reportCompressedSize: false,
  },
});
