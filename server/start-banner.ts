/**
 * The short block `npm start` prints on its first start (the sandbox was just created): where everything is and where
 * the keys are. Later starts print one "listening on" line instead.
 */
export interface StartBanner {
  /** PUBLIC_BASE_URL, or http://localhost:<port>. */
  baseUrl: string;
  demo: boolean;
  /** The dashboard's bundle is built (dist/dashboard). */
  dashboard: boolean;
}

export function renderStartBanner({ baseUrl, demo, dashboard }: StartBanner): string {
  const rows: [string, string][] = [
    ['API reference', `${baseUrl}/api-docs`],
    ['Error codes', `${baseUrl}/docs/errors`],
    ...(demo ? ([['Sales demo', `${baseUrl}/demo`]] as [string, string][]) : []),
    ...(dashboard ? ([['Dashboard', `${baseUrl}/dashboard`]] as [string, string][]) : []),
    ['Keys', 'the sandbox test key pair above, printed again on every start (rolled and revoked in the dashboard, Keys page)'],
    ['Health', `${baseUrl}/healthz`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return `Ready at ${baseUrl}\n${rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`).join('\n')}\n\n`;
}
