import { applyDecorators } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { plainToInstance, Transform } from 'class-transformer';
import { isSupportedCountry } from 'libphonenumber-js';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength, validateSync } from 'class-validator';
import { parseQuietHours, parseReminderDays, type QuietHours } from '../modules/messages/domain/message.js';
import { instructionsProblem, type Language, LANGUAGES, PAYMENT_INSTRUCTIONS_MAX } from '../modules/messages/domain/templates.js';

export type AppEnv = 'production' | 'uat';

/**
 * An optional whole number from `min` to `max` (the environment gives text: "42" is read as 42). The
 * decorators as they would stand written in one line above a property, so the messages keep their order.
 */
const OptionalInt = (min: number, max: number) =>
  applyDecorators(Max(max), Min(min), IsInt(), Transform(({ value }: { value: unknown }) => (value === undefined ? value : Number(value))), IsOptional());

/** The environment as the process receives it; validated once at boot. */
class EnvironmentVariables {
  @OptionalInt(0, 65535)
  PORT?: number;

  @IsOptional() @IsIn(['production', 'uat'])
  APP_ENV?: AppEnv;

  @IsOptional() @IsString() @MinLength(1)
  DATABASE_URL?: string;

  @OptionalInt(1024, 65535)
  EMBEDDED_PG_PORT?: number;

  @OptionalInt(2, 200)
  DB_POOL_SIZE?: number;

  // more than a delivery round's 10 s wait for the lock platform between two of its statements
  @OptionalInt(15, 3600)
  DB_IDLE_TRANSACTION_SECONDS?: number;

  @IsOptional() @IsString() @MinLength(16)
  JWT_SECRET?: string;

  @IsOptional() @Matches(/^[1-9]\d{0,6}[smhd]$/, { message: 'JWT_EXPIRES_IN must be a whole number followed by s, m, h or d (for example 24h)' })
  JWT_EXPIRES_IN?: string;

  @OptionalInt(1, 100000)
  SIGNIN_RATE_LIMIT?: number;

  @OptionalInt(1, 100000)
  SIGNIN_ADDRESS_LIMIT?: number;

  // the reverse proxies in front of the service, by address or CIDR: their X-Forwarded-For names the client (read by trustedProxies)
  @IsOptional() @IsString()
  TRUST_PROXY?: string;

  @IsOptional() @IsString() @MinLength(3)
  ADMIN_USERNAME?: string;

  @IsOptional() @IsString() @MinLength(12) @MaxLength(128)
  ADMIN_PASSWORD?: string;

  @IsOptional() @Matches(/^[A-Z]{2}$/, { message: 'DEFAULT_COUNTRY must be an ISO 3166-1 alpha-2 code in capitals, such as UG or KE' })
  DEFAULT_COUNTRY?: string;

  @OptionalInt(0, 3650)
  BONUS_DAYS_MAX?: number;

  @OptionalInt(1, 720)
  TEMP_UNLOCK_MAX_HOURS?: number;

  @IsOptional() @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  MOBILE_MONEY_API_URL?: string;

  @IsOptional() @IsString()
  MOBILE_MONEY_API_KEY?: string;

  @OptionalInt(0, 1440)
  MOBILE_MONEY_LOOKUP_MINUTES?: number;

  @IsOptional() @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  DEVICE_LOCK_API_URL?: string;

  @IsOptional() @IsString()
  DEVICE_LOCK_API_KEY?: string;

  @OptionalInt(100, 60000)
  OUTBOX_POLL_MS?: number;

  @OptionalInt(1, 60)
  OVERDUE_CHECK_MINUTES?: number;

  @OptionalInt(0, 10080)
  COLLECTIONS_GENERATE_MINUTES?: number;

  @IsOptional() @IsString()
  CURRENCY?: string;

  @IsOptional() @IsString()
  BUSINESS_TIMEZONE?: string;

  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  @IsOptional() @IsIn(['true', 'false'])
  JOBS_ENABLED?: string;

  @OptionalInt(1, 1024)
  IMPORT_MAX_MB?: number;

  @OptionalInt(1, 3600)
  REQUEST_TIMEOUT_SECONDS?: number;

  @OptionalInt(5, 3600)
  EXPORT_STALL_SECONDS?: number;

  @IsOptional() @IsString()
  DATA_DIR?: string;

  @IsOptional() @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  PRODUCTION_BASE_URL?: string;

  @IsOptional() @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  SMS_API_URL?: string;

  @IsOptional() @Matches(/^[\w.@-]{1,64}$/, { message: 'SMS_USERNAME must be 1–64 letters, digits, dots, dashes, underscores or @' })
  SMS_USERNAME?: string;

  @IsOptional() @IsString()
  SMS_API_KEY?: string;

  @IsOptional() @Matches(/^[A-Za-z0-9 ]{1,11}$|^\+?\d{3,15}$/, { message: 'SMS_SENDER_ID must be an alphanumeric sender id of at most 11 characters or a short code' })
  SMS_SENDER_ID?: string;

  @IsOptional() @IsString() @MinLength(16, { message: 'SMS_CALLBACK_KEY must be at least 16 characters' })
  SMS_CALLBACK_KEY?: string;

  @IsOptional() @IsIn(LANGUAGES as unknown as string[], { message: `SMS_DEFAULT_LANGUAGE must be one of ${LANGUAGES.join(', ')}` })
  SMS_DEFAULT_LANGUAGE?: Language;

  @IsOptional() @IsString()
  SMS_REMINDER_DAYS?: string;

  @IsOptional() @IsString()
  SMS_QUIET_HOURS?: string;

  @IsOptional() @IsString()
  PAYMENT_INSTRUCTIONS?: string;

  @OptionalInt(1, 60000)
  SMS_RATE_PER_MINUTE?: number;

  /** more than a send's 10 s time-out: the lease must outlast the send it was renewed for */
  @OptionalInt(15, 3600)
  SMS_LEASE_SECONDS?: number;

  @IsOptional() @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  UAT_BASE_URL?: string;
}

/**
 * TRUST_PROXY: the reverse proxies' addresses or CIDR ranges, comma-separated. Only these: `true` or a
 * hop count would let any client name its own address and escape the sign-in limits.
 */
function trustedProxies(value: string | undefined): string[] {
  const entries = (value ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const version = isIP(address);
    const bits = version === 4 ? 32 : 128;
    if (!version || extra !== undefined || (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))) {
      throw new ConfigError(`Invalid configuration: TRUST_PROXY must list the proxies' addresses or CIDR ranges, comma-separated (for example 127.0.0.1,10.0.0.0/8), not "${entry}"`);
    }
  }
  return entries;
}

/** Typed, validated configuration handed to every module (injected as a class token). */
export class AppConfig {
  port: number;
  env: AppEnv;
  dataDir: string;
  database: { url?: string; embeddedPort: number; poolSize: number; idleInTransactionMs: number };
  jwt: { secret: string; expiresIn: string; issuer: string };
  signInRateLimit: number;
  /** sign-in attempts a minute from one client address, whatever the username */
  signInAddressLimit: number;
  /** reverse proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client address; none by default */
  trustedProxies: string[];
  admin: { username?: string; password?: string };
  mobileMoney: { url?: string; apiKey?: string };
  mobileMoneyLookupMinutes: number;
  deviceLock: { url?: string; apiKey?: string };
  outboxPollMs: number;
  overdueCheckMinutes: number;
  collectionsGenerateMinutes: number;
  servers: { production: string; uat: string };
  currency: string;
  businessTimeZone: string;
  /** ISO 3166-1 alpha-2 country of telephone numbers written without a country code */
  defaultCountry: string;
  /** bonus days a deal may receive in total */
  bonusDaysMax: number;
  /** hours of temporary unlock a deal may receive in any 30 days */
  tempUnlockMaxHours: number;
  logLevel: string;
  jobsEnabled: boolean;
  /** largest import file, in MB (1 MB = 1,048,576 bytes) */
  importMaxMb: number;
  /** how long a client may take to send a whole request, headers and body (an import's file included); then 408 */
  requestTimeoutSeconds: number;
  /** an export whose client reads nothing for this long is ended (its connection and its place given back) */
  exportStallSeconds: number;
  /** customer messages and their gateway (DESIGN part 11) */
  sms: {
    url?: string;
    username?: string;
    apiKey?: string;
    senderId?: string;
    callbackKey?: string;
    defaultLanguage: Language;
    /** days before the paid-up date, largest first */
    reminderDays: number[];
    quietHours: QuietHours;
    paymentInstructions: string;
    /** messages handed to the gateway per minute, all instances together */
    ratePerMinute: number;
    /** how long a message an instance claimed is kept from the other instances */
    leaseSeconds: number;
  };
}

export class ConfigError extends Error {}

const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/**
 * Validates the environment and returns the typed configuration.
 * Throws a ConfigError whose message is one line naming the bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const vars = plainToInstance(EnvironmentVariables, raw);
  const errors = validateSync(vars, { skipMissingProperties: false });
  if (errors.length > 0) {
    const first = errors[0];
    const rule = Object.values(first.constraints ?? {})[0] ?? 'is invalid';
    throw new ConfigError(`Invalid configuration: ${first.property} ${rule.replace(first.property + ' ', '')}`);
  }
  const appEnv: AppEnv = vars.APP_ENV ?? 'uat';
  if (vars.BUSINESS_TIMEZONE && !isTimeZone(vars.BUSINESS_TIMEZONE)) {
    throw new ConfigError(`Invalid configuration: BUSINESS_TIMEZONE is not a known IANA time zone`);
  }
  if (vars.CURRENCY && !Intl.supportedValuesOf('currency').includes(vars.CURRENCY)) {
    throw new ConfigError('Invalid configuration: CURRENCY must be an ISO 4217 currency code such as UGX or KES');
  }
  if (vars.DEFAULT_COUNTRY && !isSupportedCountry(vars.DEFAULT_COUNTRY)) {
    throw new ConfigError('Invalid configuration: DEFAULT_COUNTRY is not a country with telephone numbering rules (ISO 3166-1 alpha-2, such as UG)');
  }
  if (appEnv === 'production' && (!vars.JWT_SECRET || vars.JWT_SECRET.length < 32)) {
    throw new ConfigError('Invalid configuration: JWT_SECRET must be set to at least 32 characters when APP_ENV=production');
  }
  // each platform takes its key as a Bearer token: an address without it would answer every call 401
  for (const [url, key] of [['MOBILE_MONEY_API_URL', 'MOBILE_MONEY_API_KEY'], ['DEVICE_LOCK_API_URL', 'DEVICE_LOCK_API_KEY']] as const) {
    if (vars[url] && !vars[key]) throw new ConfigError(`Invalid configuration: ${key} must be set with ${url}`);
  }
  const sms = smsConfig(vars);
  const dataDir = resolve(vars.DATA_DIR ?? join(process.cwd(), '.data', appEnv));
  return {
    port: vars.PORT ?? 3000,
    env: appEnv,
    dataDir,
    database: { url: vars.DATABASE_URL, embeddedPort: vars.EMBEDDED_PG_PORT ?? (appEnv === 'production' ? 5442 : 5441), poolSize: vars.DB_POOL_SIZE ?? 20, idleInTransactionMs: (vars.DB_IDLE_TRANSACTION_SECONDS ?? 60) * 1000 },
    jwt: { secret: vars.JWT_SECRET ?? persistedSecret(dataDir), expiresIn: vars.JWT_EXPIRES_IN ?? '24h', issuer: `payg-${appEnv}` },
    signInRateLimit: vars.SIGNIN_RATE_LIMIT ?? 10,
    signInAddressLimit: vars.SIGNIN_ADDRESS_LIMIT ?? 30,
    trustedProxies: trustedProxies(vars.TRUST_PROXY),
    admin: { username: vars.ADMIN_USERNAME, password: vars.ADMIN_PASSWORD },
    mobileMoney: { url: stripSlash(vars.MOBILE_MONEY_API_URL), apiKey: vars.MOBILE_MONEY_API_KEY },
    mobileMoneyLookupMinutes: vars.MOBILE_MONEY_LOOKUP_MINUTES ?? 15,
    deviceLock: { url: stripSlash(vars.DEVICE_LOCK_API_URL), apiKey: vars.DEVICE_LOCK_API_KEY },
    servers: {
      production: stripSlash(vars.PRODUCTION_BASE_URL) ?? 'https://payg.example.com',
      uat: stripSlash(vars.UAT_BASE_URL) ?? 'https://uat.payg.example.com',
    },
    outboxPollMs: vars.OUTBOX_POLL_MS ?? 1000,
    overdueCheckMinutes: vars.OVERDUE_CHECK_MINUTES ?? 15,
    collectionsGenerateMinutes: vars.COLLECTIONS_GENERATE_MINUTES ?? 1440,
    currency: vars.CURRENCY ?? 'UGX',
    businessTimeZone: vars.BUSINESS_TIMEZONE ?? 'UTC',
    defaultCountry: vars.DEFAULT_COUNTRY ?? 'UG',
    bonusDaysMax: vars.BONUS_DAYS_MAX ?? 90,
    tempUnlockMaxHours: vars.TEMP_UNLOCK_MAX_HOURS ?? 72,
    logLevel: vars.LOG_LEVEL ?? 'info',
    jobsEnabled: (vars.JOBS_ENABLED ?? 'true') === 'true',
    importMaxMb: vars.IMPORT_MAX_MB ?? 50,
    requestTimeoutSeconds: vars.REQUEST_TIMEOUT_SECONDS ?? 300,
    exportStallSeconds: vars.EXPORT_STALL_SECONDS ?? 60,
    sms,
  };
}

function smsConfig(vars: EnvironmentVariables): AppConfig['sms'] {
  const reminderDays = parseReminderDays(vars.SMS_REMINDER_DAYS ?? '3,1');
  if (!reminderDays) throw new ConfigError('Invalid configuration: SMS_REMINDER_DAYS must be whole days from 1 to 30 separated by commas, such as 3,1');
  const quietHours = parseQuietHours(vars.SMS_QUIET_HOURS ?? '21-7');
  if (!quietHours) throw new ConfigError('Invalid configuration: SMS_QUIET_HOURS must be two hours 0–23 such as 21-7 (from 21:00 to 07:00; equal hours: none)');
  const instructions = (vars.PAYMENT_INSTRUCTIONS ?? '').trim();
  const problem = instructionsProblem(instructions);
  if (problem) {
    throw new ConfigError(
      `Invalid configuration: PAYMENT_INSTRUCTIONS must be one line of GSM-7 characters of at most ${PAYMENT_INSTRUCTIONS_MAX} septets (€ [ ] { } ~ ^ | \\ count two), so that every message fits two SMS: this one ${problem}`,
    );
  }
  if (vars.SMS_API_URL && (!vars.SMS_USERNAME || !vars.SMS_API_KEY)) throw new ConfigError('Invalid configuration: SMS_USERNAME and SMS_API_KEY must be set with SMS_API_URL');
  return {
    url: stripSlash(vars.SMS_API_URL),
    username: vars.SMS_USERNAME,
    apiKey: vars.SMS_API_KEY,
    senderId: vars.SMS_SENDER_ID,
    callbackKey: vars.SMS_CALLBACK_KEY,
    defaultLanguage: vars.SMS_DEFAULT_LANGUAGE ?? 'en',
    reminderDays,
    quietHours,
    paymentInstructions: instructions,
    ratePerMinute: vars.SMS_RATE_PER_MINUTE ?? 100,
    leaseSeconds: vars.SMS_LEASE_SECONDS ?? 60,
  };
}

const stripSlash = (url?: string) => url?.replace(/\/+$/, '');

/** In UAT without JWT_SECRET: a random key generated once and kept in the data folder. */
function persistedSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another instance wrote it first: use theirs so tokens agree.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
}
