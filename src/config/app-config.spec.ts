import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'payg-config-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts with no configuration at all: uat, port 3000, embedded database, a kept secret', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({ env: 'uat', port: 3000, currency: 'UGX', businessTimeZone: 'UTC' });
    expect(config.database.url).toBeUndefined();
    expect(config.jwt).toMatchObject({ expiresIn: '24h', issuer: 'payg-uat' });
    expect(config.jwt.secret.length).toBeGreaterThanOrEqual(32);
    // the generated secret is kept, so tokens survive a restart
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8')).toBe(config.jwt.secret);
    expect(loadConfig({ DATA_DIR: dataDir }).jwt.secret).toBe(config.jwt.secret);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ APP_ENV: 'staging' }, 'APP_ENV'],
    [{ MOBILE_MONEY_API_URL: 'not a url' }, 'MOBILE_MONEY_API_URL'],
    [{ BUSINESS_TIMEZONE: 'Mars/Olympus' }, 'BUSINESS_TIMEZONE'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
  ])('stops on %p with one line naming %s', (env, name) => {
    const attempt = () => loadConfig({ DATA_DIR: dataDir, ...env });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).toContain(name);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('refuses production without a JWT_SECRET of at least 32 characters', () => {
    expect(() => loadConfig({ APP_ENV: 'production', DATA_DIR: dataDir })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ APP_ENV: 'production', JWT_SECRET: 'x'.repeat(31), DATA_DIR: dataDir })).toThrow(/JWT_SECRET/);
    const config = loadConfig({ APP_ENV: 'production', JWT_SECRET: 'x'.repeat(32), DATA_DIR: dataDir });
    expect(config.jwt.issuer).toBe('payg-production');
  });
});
