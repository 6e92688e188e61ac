import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, processRole } from '../../server/config';

describe('processRole', () => {
  const config = (env: Record<string, string> = {}) => loadConfig({ MASTER_KEY: 'x'.repeat(32), ...env });

  it('is all by default, PROCESS_ROLE otherwise, and --role wins over both', () => {
    expect(processRole(config(), [])).toBe('all');
    expect(processRole(config({ PROCESS_ROLE: 'worker' }), [])).toBe('worker');
    expect(processRole(config({ PROCESS_ROLE: 'worker' }), ['--role', 'api'])).toBe('api');
    expect(processRole(config(), ['--role=worker'])).toBe('worker');
  });

  it('refuses an unknown or missing role', () => {
    expect(() => config({ PROCESS_ROLE: 'cron' })).toThrow(ConfigError);
    expect(() => processRole(config(), ['--role', 'cron'])).toThrow(/--role must be api, worker or all/);
    expect(() => processRole(config(), ['--role'])).toThrow(/got nothing/);
  });
});
