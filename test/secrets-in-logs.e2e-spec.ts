import pg from 'pg';
import { ADMIN, createTestDatabase, dropTestDatabase } from './support/test-app.js';
import { api, Instance, signIn, startInstance } from './support/instances.js';

/**
 * The built service at LOG_LEVEL=debug, its console read whole: a password, its hash or a token
 * never reaches a log line, also when the database refuses the statement that carries the hash
 * (the error filter logs the error, and a query error carries the statement's parameters).
 */
describe('Secrets in the log', () => {
  let databaseUrl: string;
  let instance: Instance;
  let db: pg.Client;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    instance = await startInstance(databaseUrl, { LOG_LEVEL: 'debug' }, { outputLimit: 2_000_000 });
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await instance?.stop();
    await dropTestDatabase(databaseUrl);
  });

  it('logs a failed password change or user creation without the password hash', async () => {
    const admin = await signIn(instance.url, ADMIN.username, ADMIN.password);
    const created = await api(instance.url, '/finance/users/create', admin, { username: 'log-probe', password: 'log-probe-password-1', role: 'OPERATOR' });
    expect(created.status).toBe(201);
    const operator = await signIn(instance.url, 'log-probe', 'log-probe-password-1');
    // any refusal by the database of the statement that writes a hash (an outage, a timeout, a constraint)
    await db.query(`CREATE FUNCTION refuse_user_writes() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'user writes refused for this test'; END $$`);
    await db.query('CREATE TRIGGER refuse_user_writes BEFORE INSERT OR UPDATE ON users FOR EACH ROW EXECUTE FUNCTION refuse_user_writes()');
    try {
      const changed = await api(instance.url, '/finance/users/password', admin, { id: created.body.id, password: 'log-probe-new-password' });
      expect(changed).toEqual({ status: 500, body: { message: 'Internal server error.' } });
      const another = await api(instance.url, '/finance/users/create', admin, { username: 'log-probe-2', password: 'log-probe-password-2', role: 'COLLECTOR' });
      expect(another).toEqual({ status: 500, body: { message: 'Internal server error.' } });
    } finally {
      await db.query('DROP TRIGGER refuse_user_writes ON users');
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const output = instance.output();
    // the failures were logged, with what an operator needs to find them
    expect(output).toContain('user writes refused for this test');
    expect(output).toContain('UPDATE users SET password_hash');
    const { rows } = await db.query('SELECT password_hash FROM users');
    for (const row of rows as Array<{ password_hash: string | null }>) if (row.password_hash) expect(output).not.toContain(row.password_hash);
    expect(output).not.toMatch(/\$argon2id\$|\$2[aby]\$/);
    for (const secret of ['log-probe-password-1', 'log-probe-new-password', 'log-probe-password-2', ADMIN.password, admin, operator]) expect(output).not.toContain(secret);
  }, 60_000);
});
