/**
 * `npm run bench -- <name>`: the benchmarks the issues name. Each prints its figures and the
 * baseline measured in the same run (the machine is shared and noisy: compare within a run).
 */
import { api } from './api';
import { lifecycle } from './lifecycle';
import { liveLifecycle } from './live-lifecycle';
import { repayments } from './repayments';
import { webhooks } from './webhooks';
import { checkout } from './checkout';
import { dashboard } from './dashboard';
import { soakBench } from './soak';
import { reviewsBench } from './reviews';
import { startup } from './startup';

// `lifecycle live`: one patient-financing lifecycle live on the providers' fakes beside the sandbox's (live-lifecycle.ts).
const benches: Record<string, () => Promise<void>> = { api, lifecycle: () => (process.argv[3] === 'live' ? liveLifecycle() : lifecycle()), repayments, webhooks, checkout, dashboard, soak: soakBench, reviews: reviewsBench, startup };
const name = process.argv[2];
const bench = name ? benches[name] : undefined;
if (!bench) {
  process.stderr.write(`usage: npm run bench -- <${Object.keys(benches).join('|')}>   (lifecycle live: live on the fakes beside the sandbox)\n`);
  process.exit(2);
}
await bench();
