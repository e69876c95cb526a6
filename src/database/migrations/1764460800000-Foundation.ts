import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1764460800000 implements MigrationInterface {
  name = 'Foundation1764460800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id serial PRIMARY KEY,
        username varchar(255) NOT NULL,
        password_hash varchar(100),
        role varchar(20) NOT NULL CHECK (role IN ('ADMIN', 'OPERATOR', 'COLLECTOR', 'PROVIDER', 'CUSTOMER')),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_username_key ON users (lower(username))`);
    await q.query(`
      CREATE TABLE audit_log (
        id bigserial PRIMARY KEY,
        user_id integer,
        method varchar(10) NOT NULL,
        route varchar(255) NOT NULL,
        record_id varchar(100),
        status smallint NOT NULL,
        request_id varchar(100),
        at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX audit_log_at_idx ON audit_log (at)`);
    await q.query(`CREATE INDEX audit_log_record_idx ON audit_log (route, record_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_log`);
    await q.query(`DROP TABLE users`);
  }
}
