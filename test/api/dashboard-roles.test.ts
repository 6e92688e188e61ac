import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness';
import { signedInOwner } from '../support/dashboard';

/** The permission matrix is the server's check: a member whose role lacks an action is refused, whatever the page shows. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

describe('dashboard roles on the server', () => {
  it('when an owner becomes an analyst, then the audit log answers 403 dashboard_permission_denied at once, and reads nothing', async () => {
    const member = await signedInOwner(app);
    const allowed = await member.get('/audit-log');
    expect(allowed.status).toBe(200);
    expect(allowed.json.data.length).toBeGreaterThan(0);

    await app.platform.db.updateTable('dashboardMemberships').set({ role: 'analyst' }).where('organisationId', '=', member.organisationId).execute();
    const refused = await member.get('/audit-log');
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: 'dashboard_permission_denied', data: { action: 'audit.read', role: 'analyst' } });
    expect(refused.json.data).not.toHaveProperty('length');

    // The session itself still works: the role decides what it may do, not whether it exists.
    expect((await member.get('/session')).status).toBe(200);
  });
});
