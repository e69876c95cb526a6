import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../../../config/app-config.js';

const WINDOW_SECONDS = 60;

/** A sign-in refused for now; `retryAfterMs` until the window ends. */
export class SignInLimited {
  constructor(readonly retryAfterMs: number) {}
}

/**
 * Sign-in attempts counted in PostgreSQL, so every instance counts together: per client address
 * whatever the username (SIGNIN_ADDRESS_LIMIT a minute), then per address and canonical username
 * (SIGNIN_RATE_LIMIT). A key that has used up its minute is also blocked in this instance's memory
 * until the minute ends, so a flood costs no database round trip. The counters use their own small
 * pool: a flood of sign-ins waits for it instead of taking connections from every other request.
 */
@Injectable()
export class SignInLimiter implements OnModuleDestroy {
  private readonly pool: pg.Pool;
  private readonly perAddress: RateLimiterPostgres;
  private readonly perUsername: RateLimiterPostgres;

  constructor(config: AppConfig) {
    this.pool = new pg.Pool({ connectionString: config.database.url, max: 3, connectionTimeoutMillis: 3000, idleTimeoutMillis: 30_000, statement_timeout: 5000 });
    this.pool.on('error', () => undefined); // an idle client's broken connection: the pool replaces it
    // signin_attempts is made by the AccountsHardening migration: the service never creates tables at run time
    const common = { storeClient: this.pool, storeType: 'pool', tableName: 'signin_attempts', tableCreated: true, duration: WINDOW_SECONDS };
    this.perAddress = new RateLimiterPostgres({ ...common, keyPrefix: 'addr', points: config.signInAddressLimit, inMemoryBlockOnConsumed: config.signInAddressLimit });
    this.perUsername = new RateLimiterPostgres({ ...common, keyPrefix: 'user', points: config.signInRateLimit, inMemoryBlockOnConsumed: config.signInRateLimit });
  }

  /** Counts one attempt; throws SignInLimited when the address or the username has used its minute. */
  async consume(address: string, usernameCanonical: string): Promise<void> {
    await this.take(this.perAddress, address);
    // A digest keeps the key within the table's 255 characters and keeps usernames out of it.
    await this.take(this.perUsername, `${address}|${createHash('sha256').update(usernameCanonical).digest('base64url')}`);
  }

  private async take(limiter: RateLimiterPostgres, key: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw new SignInLimited(rejection.msBeforeNext);
      throw rejection;
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }
}
