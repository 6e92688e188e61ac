import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { staticAssetsPlugin } from '../widget/vite-static-assets.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The organisation dashboard: its own ES module bundle at `/dashboard/assets/dashboard.js`, Lit bundled in,
 * every page a chunk loaded when first opened (the initial bundle is the shell, the API client and the account
 * pages: budget 60 KB gzipped, `npm run bench -- dashboard`). Separate from the checkout's bundle and budget.
 */
export default defineConfig({
  resolve: { conditions: ['module', 'browser', 'production'] },
  root,
  plugins: [staticAssetsPlugin()],
  build: {
    outDir: path.join(root, 'dist/dashboard'),
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: path.join(root, 'dashboard/main.ts'), formats: ['es'], fileName: () => 'dashboard.js' },
    rollupOptions: { output: { chunkFileNames: '[name]-[hash].js' } },
    reportCompressedSize: false,
  },
});
