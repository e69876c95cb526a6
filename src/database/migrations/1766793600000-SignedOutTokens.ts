import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tokens their holders signed out with (POST /api/auth/signout), by SHA-256 digest, kept until
 * they would have expired anyway: such a token, and every copy of it, is refused from then on.
 */
export class SignedOutTokens1766793600000 implements MigrationInterface {
  name = 'SignedOutTokens1766793600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE signed_out_tokens (
        digest text PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id),
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX signed_out_tokens_user_idx ON signed_out_tokens (user_id, expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE signed_out_tokens`);
  }
}
