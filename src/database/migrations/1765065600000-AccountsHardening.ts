import { MigrationInterface, QueryRunner } from 'typeorm';
import { canonicalUsername } from '../../modules/users/domain/username.js';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Accounts (issue 14, DESIGN part 3):
 * - `username_canonical`: the username in its one compared form (NFKC, then lower case), computed by
 *   the service and unique-indexed; it replaces the unique index on PostgreSQL's lower(username),
 *   whose idea of lower case is not JavaScript's. NULL means "no one can sign in as this row": only
 *   the later of two existing users whose names become equal once canonical (see below).
 * - `token_version`: carried in every token (claim `ver`); raised when the password changes or the
 *   user is disabled, so older tokens stop working.
 * - `password_hash` widened for argon2id hashes (bcrypt hashes still verify and are replaced at the
 *   next sign-in).
 * - `signin_attempts`: the sign-in counters (rate-limiter-flexible's PostgreSQL store), shared by
 *   every instance; made here so the service never creates tables at run time.
 *
 * Two existing users whose usernames collide once canonical (e.g. `ＯＰＳ` in full-width letters and
 * `ops`): the one to keep is the active one, then a staff user before a customer identity, then the
 * older; each other one is disabled, its tokens revoked and its canonical form left NULL, and one line
 * per conflict is written to the log. Nothing is deleted, so every record keeps its author.
 */
export class AccountsHardening1765065600000 implements MigrationInterface {
  name = 'AccountsHardening1765065600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN username_canonical text, ADD COLUMN token_version integer NOT NULL DEFAULT 1`);
    await q.query(`ALTER TABLE users ALTER COLUMN password_hash TYPE varchar(255)`);

    // Printable ASCII (telephones, almost every staff name) is its own NFKC form: lower it in SQL,
    // letter by letter so that no database locale can interfere. The rest goes through the service's function.
    await q.query(`UPDATE users SET username_canonical = translate(username, '${UPPER}', '${LOWER}') WHERE username !~ '[^ -~]'`);
    const others: { id: number; username: string }[] = await q.query(`SELECT id, username FROM users WHERE username_canonical IS NULL ORDER BY id`);
    for (const row of others) {
      await q.query(`UPDATE users SET username_canonical = $2 WHERE id = $1`, [row.id, canonicalUsername(row.username)]);
    }

    const conflicts: { canonical: string; ids: number[] }[] = await q.query(`
      SELECT username_canonical AS canonical,
             array_agg(id ORDER BY active DESC, (role <> 'CUSTOMER') DESC, id) AS ids
      FROM users GROUP BY username_canonical HAVING count(*) > 1`);
    for (const { ids } of conflicts) {
      const [kept, ...later] = ids;
      await q.query(`UPDATE users SET username_canonical = NULL, active = false, token_version = token_version + 1 WHERE id = ANY($1)`, [later]);
      process.stderr.write(
        `users: ${later.map((id) => `user ${id}`).join(', ')} disabled by the canonical-username migration: ` +
          `the username is user ${kept}'s once letter case is ignored; user ${kept} keeps it\n`,
      );
    }

    // The same index name on the new column: other modules recognise "username taken" by it.
    await q.query(`DROP INDEX users_username_key`);
    await q.query(`CREATE UNIQUE INDEX users_username_key ON users (username_canonical)`);

    await q.query(`
      CREATE TABLE signin_attempts (
        key varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE signin_attempts`);
    await q.query(`DROP INDEX users_username_key`);
    await q.query(`CREATE UNIQUE INDEX users_username_key ON users (lower(username))`);
    // argon2id hashes written since fit varchar(100), though the previous release cannot verify them.
    await q.query(`ALTER TABLE users ALTER COLUMN password_hash TYPE varchar(100)`);
    await q.query(`ALTER TABLE users DROP COLUMN token_version, DROP COLUMN username_canonical`);
  }
}
