import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin, type PluginOption } from 'vite';
import { ON_DEMAND_FILES, STEPS_RUNTIME_GLOBAL, STEPS_RUNTIME_MODULES, type OnDemandFile } from './steps-shared.ts';
import { ASSET_MANIFEST, staticAssetsPlugin } from './vite-static-assets.ts';

const WIDGET_DIR = path.resolve(import.meta.dirname);
/** The stable name of the rarer steps' file (the first of `ON_DEMAND_FILES`). */
export const STEPS_FILE = 'checkout-steps.js';
const VIRTUAL = 'virtual:lc-steps-file';

/**
 * The steps build's imports of shared modules become the main bundle's copies (`steps-runtime.ts`):
 * `import { t } from '../i18n/i18n'` reads `__lcStepsRuntime.i18n.t`. An import of any other
 * module outside the steps' own folders fails the build (it would be a second copy on the page).
 */
function sharedRuntime(file: OnDemandFile): Plugin {
  const own = ON_DEMAND_FILES[file];
  const ownFolders = own.folders.map((f) => path.join(WIDGET_DIR, f) + path.sep);
  const ownFiles = [own.entry, ...own.files].map((f) => path.join(WIDGET_DIR, f));
  const byPath = new Map(Object.entries(STEPS_RUNTIME_MODULES).map(([spec, name]) => [spec === 'lit' ? 'lit' : path.join(WIDGET_DIR, spec), name]));
  return {
    name: 'lc-steps-shared-runtime',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === 'lit') return { id: 'lc-runtime:lit', external: true };
      // Packages' own relative imports are theirs; only the widget's sources are checked.
      if (!importer || !source.startsWith('.') || !importer.startsWith(WIDGET_DIR + path.sep) || importer.includes(`${path.sep}node_modules${path.sep}`)) return null;
      const resolved = path.resolve(path.dirname(importer), source).replace(/\.ts$/, '');
      const shared = byPath.get(resolved);
      if (shared) return { id: `lc-runtime:${shared}`, external: true };
      if (ownFiles.includes(resolved) || ownFolders.some((folder) => resolved.startsWith(folder))) return null;
      this.error(`${file} imports ${path.relative(WIDGET_DIR, resolved)}, which is not shared with the main bundle: add it to STEPS_RUNTIME_MODULES (widget/steps-runtime.ts)`);
    },
  };
}

/**
 * For the script-tag build: builds each on-demand file (`ON_DEMAND_FILES`) first as its own IIFE
 * (same transforms, shared modules read from the main bundle), lets the main bundle import their
 * content-hashed names (`import FILES from 'virtual:lc-steps-file'`: stable name → hashed name), and
 * adds their files (hashed, `.br`, `.gz`) and manifest entries to the output folder after the main
 * bundle is written.
 */
export function stepsPlugin(options: { plugins: () => PluginOption[] }): Plugin {
  let outDir = '';
  let staging = '';
  const hashedNames: Record<string, string> = {};
  return {
    name: 'lc-steps',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      staging = `${outDir}.steps-${process.pid}-${Date.now()}`;
    },
    async buildStart() {
      fs.rmSync(staging, { recursive: true, force: true });
      for (const file of Object.keys(ON_DEMAND_FILES) as OnDemandFile[]) {
        const folder = path.join(staging, file);
        await build({
          configFile: false,
          logLevel: 'warn',
          resolve: { conditions: ['module', 'browser', 'production'] },
          plugins: [sharedRuntime(file), ...options.plugins(), staticAssetsPlugin()],
          build: {
            outDir: folder,
            emptyOutDir: true,
            target: 'es2022',
            reportCompressedSize: false,
            lib: { entry: path.join(WIDGET_DIR, `${ON_DEMAND_FILES[file].entry}.ts`), formats: ['iife'], name: 'LcCheckoutSteps', fileName: () => file },
            rollupOptions: {
              output: { globals: (id: string) => (id.startsWith('lc-runtime:') ? `${STEPS_RUNTIME_GLOBAL}.${id.slice('lc-runtime:'.length)}` : id) },
            },
          },
        });
        const manifest = JSON.parse(fs.readFileSync(path.join(folder, ASSET_MANIFEST), 'utf8')) as Record<string, string>;
        hashedNames[file] = manifest[file] ?? file;
      }
    },
    resolveId(source) {
      return source === VIRTUAL ? `\0${VIRTUAL}` : null;
    },
    load(id) {
      return id === `\0${VIRTUAL}` ? `export default ${JSON.stringify(hashedNames)};` : null;
    },
    writeBundle: {
      sequential: true,
      order: 'post',
      handler() {
        const manifestFile = path.join(outDir, ASSET_MANIFEST);
        let manifest = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, string>) : {};
        for (const file of Object.keys(ON_DEMAND_FILES)) {
          const folder = path.join(staging, file);
          const staged = JSON.parse(fs.readFileSync(path.join(folder, ASSET_MANIFEST), 'utf8')) as Record<string, string>;
          for (const name of fs.readdirSync(folder)) if (name !== ASSET_MANIFEST) fs.copyFileSync(path.join(folder, name), path.join(outDir, name));
          manifest = { ...manifest, ...staged };
        }
        fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
        fs.rmSync(staging, { recursive: true, force: true });
      },
    },
    closeBundle() {
      fs.rmSync(staging, { recursive: true, force: true });
    },
  };
}
