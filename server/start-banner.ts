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
  /** The sandbox routes are mounted: the sandbox inbox page (e-mail and texts) is served to this machine. */
  inbox?: boolean;
  /** The live providers (`liveProviders(platform)`): a row naming them, for a start that is about live mode (a rehearsal). */
  liveProviders?: Record<string, string>;
  /** Where the keys are, when not the sandbox's. */
  keys?: string;
}

const PROVIDER_NAMES: Record<string, string> = { paystack: 'Paystack', dojah: 'Dojah', termii: 'Termii', mono: 'Mono' };
const RAIL_NAMES: Record<string, string> = { paystack: 'Paystack direct debit', mono: 'Mono Direct Debit' };
const BUREAUS: Record<string, string> = { all: 'CRC and FirstCentral', crc: 'CRC', xds: 'FirstCentral' };

/**
 * The live providers in words: `rail_a Paystack direct debit, rail_b Mono Direct Debit, bureau Mono (CRC and
 * FirstCentral), …` from `liveProviders`' `rail_a:paystack+rail_b:mono`, `mono:all`, …; `none` where live calls are refused.
 */
export function describeLiveProviders(providers: Record<string, string>): string {
  const named = (provider: string | undefined) => (provider === undefined || provider === 'none' ? 'none' : (PROVIDER_NAMES[provider] ?? provider));
  const rails = providers.rail && providers.rail !== 'none' ? providers.rail.split('+').map((entry) => {
    const [rail, provider = ''] = entry.split(':');
    return `${rail} ${RAIL_NAMES[provider] ?? provider}`;
  }) : ['rails none'];
  const [bureauProvider, bureaus] = (providers.bureau ?? 'none').split(':');
  const bureau = bureauProvider === 'none' ? 'bureau none' : `bureau ${named(bureauProvider)}${bureaus ? ` (${BUREAUS[bureaus] ?? bureaus})` : ''}`;
  return [
    ...rails,
    bureau,
    `identity ${named(providers.identity)}`,
    `AML ${named(providers.aml)}`,
    `bank names ${named(providers.bankLookup)}`,
    `texts ${named(providers.sms)}`,
  ].join(', ');
}

export function renderStartBanner({ baseUrl, demo, dashboard, inbox = false, liveProviders, keys }: StartBanner): string {
  const rows: [string, string][] = [
    ['API reference', `${baseUrl}/api-docs`],
    ['Error codes', `${baseUrl}/docs/errors`],
    ...(demo ? ([['Sales demo', `${baseUrl}/demo`]] as [string, string][]) : []),
    ...(dashboard ? ([['Dashboard', `${baseUrl}/dashboard`]] as [string, string][]) : []),
    ...(inbox ? ([['Sandbox inbox', `${baseUrl}/sandbox/mail (e-mailed links and texted codes; this machine only)`]] as [string, string][]) : []),
    ...(liveProviders ? ([['Live providers', describeLiveProviders(liveProviders)]] as [string, string][]) : []),
    ['Keys', keys ?? 'the sandbox test key pair above, printed again on every start (rolled and revoked in the dashboard, Keys page)'],
    ['Health', `${baseUrl}/healthz`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return `Ready at ${baseUrl}\n${rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`).join('\n')}\n\n`;
}
