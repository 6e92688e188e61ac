import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin, type PluginOption } from 'vite';
import { STEPS_RUNTIME_GLOBAL, STEPS_RUNTIME_MODULES } from './steps-shared.ts';
import { ASSET_MANIFEST, staticAssetsPlugin } from './vite-static-assets.ts';

const WIDGET_DIR = path.resolve(import.meta.dirname);
const ENTRY = path.join(WIDGET_DIR, 'steps.ts');
/** The folders of the on-demand steps: their own files are bundled into the steps file; anything else must be shared. */
const OWN_FOLDERS = ['lc-kyc', 'lc-guarantors', 'lc-catalog', 'lc-passkey', 'lc-identity', 'lc-decision', 'lc-ended'].map((f) => path.join(WIDGET_DIR, f) + path.sep);
/** Files outside those folders that only the steps file uses: its entry and the passkey ceremonies (@simplewebauthn/browser). */
const OWN_FILES = [ENTRY, path.join(WIDGET_DIR, 'webauthn.ts')].map((f) => f.replace(/\.ts$/, ''));
export const STEPS_FILE = 'checkout-steps.js';
const VIRTUAL = 'virtual:lc-steps-file';

/**
 * The steps build's imports of shared modules become the main bundle's copies (`steps-runtime.ts`):
 * `import { t } from '../i18n/i18n'` reads `__lcStepsRuntime.i18n.t`. An import of any other
 * module outside the steps' own folders fails the build (it would be a second copy on the page).
 */
function sharedRuntime(): Plugin {
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
      if (OWN_FILES.includes(resolved) || OWN_FOLDERS.some((folder) => resolved.startsWith(folder))) return null;
      this.error(`the on-demand steps import ${path.relative(WIDGET_DIR, resolved)}, which is not shared with the main bundle: add it to STEPS_RUNTIME_MODULES (widget/steps-runtime.ts)`);
    },
  };
}

/**
 * For the script-tag build: builds `widget/steps.ts` first as its own IIFE (same transforms, shared
 * modules read from the main bundle), lets the main bundle import its content-hashed name
 * (`import STEPS_FILE from 'virtual:lc-steps-file'`), and adds its files (hashed, `.br`, `.gz`) and
 * manifest entry to the output folder after the main bundle is written.
 */
export function stepsPlugin(options: { plugins: () => PluginOption[] }): Plugin {
  let outDir = '';
  let staging = '';
  let hashedName = STEPS_FILE;
  return {
    name: 'lc-steps',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      staging = `${outDir}.steps-${process.pid}-${Date.now()}`;
    },
    async buildStart() {
      await build({
        configFile: false,
        logLevel: 'warn',
        resolve: { conditions: ['module', 'browser', 'production'] },
        plugins: [sharedRuntime(), ...options.plugins(), staticAssetsPlugin()],
        build: {
          outDir: staging,
          emptyOutDir: true,
          target: 'es2022',
          reportCompressedSize: false,
          lib: { entry: ENTRY, formats: ['iife'], name: 'LcCheckoutSteps', fileName: () => STEPS_FILE },
          rollupOptions: {
            output: { globals: (id: string) => (id.startsWith('lc-runtime:') ? `${STEPS_RUNTIME_GLOBAL}.${id.slice('lc-runtime:'.length)}` : id) },
          },
        },
      });
      const manifest = JSON.parse(fs.readFileSync(path.join(staging, ASSET_MANIFEST), 'utf8')) as Record<string, string>;
      hashedName = manifest[STEPS_FILE] ?? STEPS_FILE;
    },
    resolveId(source) {
      return source === VIRTUAL ? `\0${VIRTUAL}` : null;
    },
    load(id) {
      return id === `\0${VIRTUAL}` ? `export default ${JSON.stringify(hashedName)};` : null;
    },
    writeBundle: {
      sequential: true,
      order: 'post',
      handler() {
        const manifestFile = path.join(outDir, ASSET_MANIFEST);
        const manifest = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, string>) : {};
        const staged = JSON.parse(fs.readFileSync(path.join(staging, ASSET_MANIFEST), 'utf8')) as Record<string, string>;
        for (const file of fs.readdirSync(staging)) if (file !== ASSET_MANIFEST) fs.copyFileSync(path.join(staging, file), path.join(outDir, file));
        fs.writeFileSync(manifestFile, `${JSON.stringify({ ...manifest, ...staged }, null, 2)}\n`);
        fs.rmSync(staging, { recursive: true, force: true });
      },
    },
    closeBundle() {
      fs.rmSync(staging, { recursive: true, force: true });
    },
  };
}
