import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CSV imports (DESIGN part 12).
 * - `OPENING`, a new ledger type: what a migrated customer paid before the book came here, one row
 *   per migrated deal, its reference in the import's own namespace (IMPORT-<importid>-<externalid>).
 * - `imports`: one record per uploaded file (validate or apply) with its status, counts, progress
 *   and errors. An apply is keyed by the hash of its file, kind, source and mapping: the same file
 *   again answers the earlier record.
 * - `import_jobs`: the file of an apply still to do. A worker holds the job's row lock for the whole
 *   apply transaction (FOR UPDATE SKIP LOCKED), so a killed instance's job is free again, with
 *   nothing of it written, as soon as PostgreSQL ends the dead session.
 * - `import_rows`: which customer or payment each applied row became, unique per source, kind and
 *   externalid: overlapping files do not bring a customer in twice.
 */
export class Imports1765411200000 implements MigrationInterface {
  name = 'Imports1765411200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments DROP CONSTRAINT payments_type_check`);
    await q.query(`ALTER TABLE payments ADD CONSTRAINT payments_type_check CHECK (type IN ('DEPOSIT', 'MANUAL', 'MOBILE_MONEY', 'OPENING'))`);
    await q.query(`
      CREATE TABLE imports (
        id serial PRIMARY KEY,
        kind varchar(20) NOT NULL CHECK (kind IN ('customers', 'payments')),
        mode varchar(20) NOT NULL CHECK (mode IN ('validate', 'apply')),
        source varchar(64) NOT NULL,
        status varchar(20) NOT NULL CHECK (status IN ('VALIDATING', 'APPLYING', 'DONE', 'FAILED')),
        filename varchar(255) NOT NULL DEFAULT '',
        filehash char(64) NOT NULL,
        mapping jsonb,
        notify boolean NOT NULL DEFAULT false,
        rows integer NOT NULL DEFAULT 0,
        valid integer NOT NULL DEFAULT 0,
        applied integer NOT NULL DEFAULT 0,
        skipped integer NOT NULL DEFAULT 0,
        processed integer NOT NULL DEFAULT 0,
        errorcount integer NOT NULL DEFAULT 0,
        errors jsonb NOT NULL DEFAULT '[]',
        message varchar(1000),
        attempts integer NOT NULL DEFAULT 0,
        created_by integer REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX imports_apply_filehash_key ON imports (filehash) WHERE mode = 'apply'`);
    await q.query(`
      CREATE TABLE import_jobs (
        import_id integer PRIMARY KEY REFERENCES imports(id) ON DELETE CASCADE,
        content bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE import_rows (
        id bigserial PRIMARY KEY,
        import_id integer NOT NULL REFERENCES imports(id),
        source varchar(64) NOT NULL,
        kind varchar(20) NOT NULL,
        externalid varchar(100) NOT NULL,
        row integer NOT NULL,
        customer_id integer REFERENCES customers(id),
        payment_id bigint REFERENCES payments(id)
      )`);
    await q.query(`CREATE UNIQUE INDEX import_rows_externalid_key ON import_rows (source, kind, externalid)`);
    await q.query(`CREATE INDEX import_rows_customer_idx ON import_rows (customer_id) WHERE customer_id IS NOT NULL`);
  }

  /** Refuses while OPENING rows exist: the ledger is immutable, and the older release cannot read them. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE import_rows`);
    await q.query(`DROP TABLE import_jobs`);
    await q.query(`DROP TABLE imports`);
    await q.query(`ALTER TABLE payments DROP CONSTRAINT payments_type_check`);
    await q.query(`ALTER TABLE payments ADD CONSTRAINT payments_type_check CHECK (type IN ('DEPOSIT', 'MANUAL', 'MOBILE_MONEY'))`);
  }
}
