/**
 * The widget's custom-elements manifest (`npm run manifest` → custom-elements.json, shipped with the
 * package as `customElements`): every `lc-*` element with its attributes, properties, events, parts
 * and CSS custom properties, read from the JSDoc header of each `*.component.ts` (the contract) and
 * the `customElements.define` beside it, so editors and frameworks see the widget's API.
 */
/** Lit's internal reactive state (`state: true`, declared private) and private or protected members are no part of the API. */
function publicApiOnly() {
  return {
    name: 'lc-public-api-only',
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        for (const declaration of mod.declarations ?? []) {
          if (!declaration.customElement) continue;
          const hidden = new Set((declaration.members ?? []).filter((m) => m.privacy === 'private' || m.privacy === 'protected').map((m) => m.name));
          if (declaration.members) declaration.members = declaration.members.filter((m) => !hidden.has(m.name));
          if (declaration.attributes) declaration.attributes = declaration.attributes.filter((a) => !hidden.has(a.fieldName));
        }
      }
    },
  };
}

/**
 * Modules in path order: the analyzer lists them in the order its file search returns them, which
 * varies with the machine's load, so the same sources could give two manifests.
 */
function modulesInPathOrder() {
  return {
    name: 'lc-modules-in-path-order',
    packageLinkPhase({ customElementsManifest }) {
      customElementsManifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
  };
}

export default {
  globs: ['widget/lc-*/lc-*.ts'],
  exclude: ['widget/**/*.styles.ts'],
  outdir: '.',
  litelement: true,
  // package.json names the manifest itself (`customElements`); the analyzer would rewrite the file.
  packagejson: false,
  plugins: [publicApiOnly(), modulesInPathOrder()],
};
