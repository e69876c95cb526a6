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
    expect(config).toMatchObject({ env: 'uat', port: 3000, currency: 'UGX', businessTimeZone: 'UTC', defaultCountry: 'UG', bonusDaysMax: 90, tempUnlockMaxHours: 72, signInAddressLimit: 30 });
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
    // each platform takes its key as a Bearer token (DESIGN parts 6 and 7): an address without it fails every call
    [{ MOBILE_MONEY_API_URL: 'https://momo.example.com' }, 'MOBILE_MONEY_API_KEY'],
    [{ DEVICE_LOCK_API_URL: 'https://lock.example.com' }, 'DEVICE_LOCK_API_KEY'],
    [{ BUSINESS_TIMEZONE: 'Mars/Olympus' }, 'BUSINESS_TIMEZONE'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ JWT_EXPIRES_IN: 'abc' }, 'JWT_EXPIRES_IN'],
    [{ ADMIN_PASSWORD: 'x'.repeat(129) }, 'ADMIN_PASSWORD'],
    [{ DEFAULT_COUNTRY: 'ug' }, 'DEFAULT_COUNTRY'],
    [{ DEFAULT_COUNTRY: 'ZZ' }, 'DEFAULT_COUNTRY'],
    [{ BONUS_DAYS_MAX: '-1' }, 'BONUS_DAYS_MAX'],
    [{ TEMP_UNLOCK_MAX_HOURS: '0' }, 'TEMP_UNLOCK_MAX_HOURS'],
    [{ SIGNIN_ADDRESS_LIMIT: 'many' }, 'SIGNIN_ADDRESS_LIMIT'],
    [{ JWT_EXPIRES_IN: '3600' }, 'JWT_EXPIRES_IN'], // jsonwebtoken would read a bare number string as milliseconds
    [{ CURRENCY: 'dollars' }, 'CURRENCY'],
    [{ CURRENCY: 'XYZ' }, 'CURRENCY'],
    [{ OVERDUE_CHECK_MINUTES: '0' }, 'OVERDUE_CHECK_MINUTES'], // the overdue lock runs at least hourly
    [{ OVERDUE_CHECK_MINUTES: '61' }, 'OVERDUE_CHECK_MINUTES'],
    [{ SMS_API_URL: 'gateway' }, 'SMS_API_URL'],
    [{ SMS_API_URL: 'https://api.africastalking.com' }, 'SMS_USERNAME'],
    [{ SMS_DEFAULT_LANGUAGE: 'fr' }, 'SMS_DEFAULT_LANGUAGE'],
    [{ SMS_REMINDER_DAYS: '3,0' }, 'SMS_REMINDER_DAYS'],
    [{ SMS_QUIET_HOURS: '21-25' }, 'SMS_QUIET_HOURS'],
    [{ SMS_CALLBACK_KEY: 'short' }, 'SMS_CALLBACK_KEY'],
    [{ SMS_SENDER_ID: 'A sender id that is long' }, 'SMS_SENDER_ID'],
    [{ PAYMENT_INSTRUCTIONS: 'x'.repeat(101) }, 'PAYMENT_INSTRUCTIONS'],
    [{ PAYMENT_INSTRUCTIONS: 'Lipa kwa M‑Pesa' }, 'PAYMENT_INSTRUCTIONS'], // a non-breaking hyphen is not GSM-7
    [{ PAYMENT_INSTRUCTIONS: '€'.repeat(100) }, 'PAYMENT_INSTRUCTIONS'], // 100 characters, 200 septets: € is an escape pair
    [{ PAYMENT_INSTRUCTIONS: '€'.repeat(50) + 'x' }, 'PAYMENT_INSTRUCTIONS'],
    [{ SMS_RATE_PER_MINUTE: '0' }, 'SMS_RATE_PER_MINUTE'],
    [{ SMS_LEASE_SECONDS: '10' }, 'SMS_LEASE_SECONDS'], // shorter than a send's time-out
    [{ DB_IDLE_TRANSACTION_SECONDS: '10' }, 'DB_IDLE_TRANSACTION_SECONDS'], // a delivery round waits up to 10 s between statements
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'], // anyone could name their own address
    [{ TRUST_PROXY: '10.0.0.1, 300.1.1.1' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
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

  it('accepts token lifetimes, currencies and check intervals an operator would write', () => {
    const config = loadConfig({ DATA_DIR: dataDir, JWT_EXPIRES_IN: '12h', CURRENCY: 'KES', OVERDUE_CHECK_MINUTES: '60' });
    expect(config).toMatchObject({ jwt: { expiresIn: '12h' }, currency: 'KES', overdueCheckMinutes: 60 });
    expect(loadConfig({ DATA_DIR: dataDir, JWT_EXPIRES_IN: '30m' }).jwt.expiresIn).toBe('30m');
  });

  it('trusts X-Forwarded-For from no proxy unless TRUST_PROXY names them', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).trustedProxies).toEqual([]);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8,::1 ' }).trustedProxies).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
  });

  it('ends a session idle in a transaction after a minute, or after DB_IDLE_TRANSACTION_SECONDS', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).database.idleInTransactionMs).toBe(60_000);
    expect(loadConfig({ DATA_DIR: dataDir, DB_IDLE_TRANSACTION_SECONDS: '300' }).database.idleInTransactionMs).toBe(300_000);
  });

  it('reads the SMS settings with their defaults', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).sms).toEqual({
      url: undefined, username: undefined, apiKey: undefined, senderId: undefined, callbackKey: undefined,
      defaultLanguage: 'en', reminderDays: [3, 1], quietHours: { start: 21, end: 7 }, paymentInstructions: '', ratePerMinute: 100, leaseSeconds: 60,
    });
    const sms = loadConfig({ DATA_DIR: dataDir, SMS_API_URL: 'https://api.sandbox.africastalking.com/', SMS_USERNAME: 'sandbox', SMS_API_KEY: 'k', SMS_REMINDER_DAYS: '1, 7,3', SMS_QUIET_HOURS: '22-6', SMS_DEFAULT_LANGUAGE: 'sw', PAYMENT_INSTRUCTIONS: ' Pay with MTN MoMo to 123456. ', SMS_LEASE_SECONDS: '15' }).sms;
    expect(sms).toMatchObject({ leaseSeconds: 15, url: 'https://api.sandbox.africastalking.com', reminderDays: [7, 3, 1], quietHours: { start: 22, end: 6 }, defaultLanguage: 'sw', paymentInstructions: 'Pay with MTN MoMo to 123456.' });
  });

  it('measures PAYMENT_INSTRUCTIONS in GSM-7 septets and says so when it refuses them', () => {
    const instructions = (text: string) => loadConfig({ DATA_DIR: dataDir, PAYMENT_INSTRUCTIONS: text }).sms.paymentInstructions;
    expect(instructions('x'.repeat(100))).toHaveLength(100);
    expect(instructions('€'.repeat(50))).toBe('€'.repeat(50));
    expect(instructions('Pay [MoMo] {123456} ~ ^ | \\ € x'.padEnd(82, '.'))).toHaveLength(82); // 9 extension characters: 91 septets
    expect(() => instructions('€'.repeat(100))).toThrow(/PAYMENT_INSTRUCTIONS must be one line of GSM-7 characters of at most 100 septets \(€ \[ \] \{ \} ~ \^ \| \\ count two\).*: this one is 200 septets$/);
    expect(() => instructions('Lipa kwa M‑Pesa')).toThrow(/: this one has ‑ \(U\+2011\), which is not GSM-7 and would make every message UCS-2$/);
    expect(() => instructions('Pay\nto 123')).toThrow(/: this one has a line break$/);
  });

  it('refuses production without a JWT_SECRET of at least 32 characters', () => {
    expect(() => loadConfig({ APP_ENV: 'production', DATA_DIR: dataDir })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ APP_ENV: 'production', JWT_SECRET: 'x'.repeat(31), DATA_DIR: dataDir })).toThrow(/JWT_SECRET/);
    const config = loadConfig({ APP_ENV: 'production', JWT_SECRET: 'x'.repeat(32), DATA_DIR: dataDir });
    expect(config.jwt.issuer).toBe('payg-production');
  });
});
