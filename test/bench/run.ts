/**
 * `npm run bench -- <name>`: the benchmarks the issues name. Each prints its figures and the
 * baseline measured in the same run (the machine is shared and noisy: compare within a run).
 */
import { api } from './api';
import { lifecycle } from './lifecycle';
import { repayments } from './repayments';
import { webhooks } from './webhooks';
import { checkout } from './checkout';
import { dashboard } from './dashboard';
import { soakBench } from './soak';

const benches: Record<string, () => Promise<void>> = { api, lifecycle, repayments, webhooks, checkout, dashboard, soak: soakBench };
const name = process.argv[2];
const bench = name ? benches[name] : undefined;
if (!bench) {
  process.stderr.write(`usage: npm run bench -- <${Object.keys(benches).join('|')}>\n`);
  process.exit(2);
}
await bench();
