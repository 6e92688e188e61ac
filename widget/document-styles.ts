const adopted = new Set<string>();

/**
 * Adds light-DOM styles to the document once, as a constructable stylesheet: allowed under the
 * hosted page's CSP (`style-src 'self'`, no inline `<style>`), and never duplicated.
 */
export function adoptDocumentStyles(name: string, cssText: string): void {
  if (adopted.has(name)) return;
  adopted.add(name);
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(cssText);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
