import { bootstrapSandbox } from '../../server/platform/domain/bootstrap';
import { startTestApp, type TestApp } from './harness';

/** The real app with the sales demo mounted: the sandbox organisation bootstrapped, as `npm start` does. */
export async function startDemoApp(env: Record<string, string> = {}): Promise<TestApp> {
  const app = await startTestApp({ env: { BOOTSTRAP_SANDBOX: 'true', ...env } });
  await bootstrapSandbox(app.platform.db, app.platform.secrets, app.platform.clock.now());
  return app;
}

/** Any API secret key, in any form it could leak in (a whole key, or its prefix in a header value). */
export const SECRET_KEY = /sk_(test|live)_/;
