import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';

/** How long an instance reuses a user's list of signed-out tokens: other instances follow a sign-out within it, as they follow a disable. */
const CACHE_MS = 5_000;

/**
 * The tokens their holders signed out with, kept (as SHA-256 digests, never the token) until they
 * would have expired anyway. A sign-out ends that token and every copy of it, at once on this
 * instance and within CACHE_MS on the others; the user's other sign-ins go on.
 */
@Injectable()
export class SignedOutTokens {
  private readonly cache = new Map<number, { digests: Set<string>; until: number }>();
  /** Counts the sign-outs of this instance: a read that one overtook is not kept. */
  private recorded = 0;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private static digest(token: string): string {
    return createHash('sha256').update(token).digest('base64url');
  }

  async record(userId: number, token: string, expiresAt: Date): Promise<void> {
    await this.dataSource.query(`INSERT INTO signed_out_tokens (digest, user_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT (digest) DO NOTHING`, [
      SignedOutTokens.digest(token),
      userId,
      expiresAt,
    ]);
    // the user's rows no token needs any more: the table holds at most a day of sign-outs
    await this.dataSource.query(`DELETE FROM signed_out_tokens WHERE user_id = $1 AND expires_at < now()`, [userId]);
    this.cache.delete(userId);
    this.recorded++;
  }

  async isSignedOut(userId: number, token: string): Promise<boolean> {
    const now = Date.now();
    let cached = this.cache.get(userId);
    if (!cached || cached.until <= now) {
      const recorded = this.recorded;
      const rows = (await this.dataSource.query(`SELECT digest FROM signed_out_tokens WHERE user_id = $1 AND expires_at > now()`, [userId])) as Array<{ digest: string }>;
      cached = { digests: new Set(rows.map((row) => row.digest)), until: now + CACHE_MS };
      if (recorded === this.recorded) {
        if (this.cache.size > 10_000) this.cache.clear();
        this.cache.set(userId, cached);
      }
    }
    return cached.digests.size > 0 && cached.digests.has(SignedOutTokens.digest(token));
  }
}
