import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ReadCache } from '../../../common/cache/read-cache.js';

/** How long an instance reuses a user's list of signed-out tokens: other instances follow a sign-out within it, as they follow a disable. */
const CACHE_MS = 5_000;

/**
 * The tokens their holders signed out with, kept (as SHA-256 digests, never the token) until they
 * would have expired anyway. A sign-out ends that token and every copy of it, at once on this
 * instance and within CACHE_MS on the others; the user's other sign-ins go on.
 */
@Injectable()
export class SignedOutTokens {
  /** Each user's signed-out digests; a sign-out here forgets the user, and a read it overtook is not kept. */
  private readonly cache = new ReadCache<number, Set<string>>(CACHE_MS);

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
    this.cache.forget(userId);
  }

  async isSignedOut(userId: number, token: string): Promise<boolean> {
    const digests = await this.cache.get(userId, async () => {
      const rows = (await this.dataSource.query(`SELECT digest FROM signed_out_tokens WHERE user_id = $1 AND expires_at > now()`, [userId])) as Array<{ digest: string }>;
      return new Set(rows.map((row) => row.digest));
    });
    return digests.size > 0 && digests.has(SignedOutTokens.digest(token));
  }
}
