import { jest } from '@jest/globals';
import bcrypt from 'bcryptjs';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Role } from '../src/common/auth/role.js';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { AccountsHardening1765065600000 } from '../src/database/migrations/1765065600000-AccountsHardening.js';
import { MIGRATIONS } from '../src/database/schema.js';
import { ADMIN, dropTestDatabase, startTestApp, TestApp } from './support/test-app.js';
import { adminQuery, withDatabase } from './support/test-database.js';

const MINE = MIGRATIONS.indexOf(AccountsHardening1765065600000);

/** An empty database migrated up to (but not including, unless `including`) the accounts migration. */
async function databaseBeforeAccounts(including = false): Promise<{ url: string; db: DataSource }> {
  const url = withDatabase(process.env.PAYG_TEST_SERVER_URL!, `payg_test_upgrade_${randomBytes(5).toString('hex')}`);
  await adminQuery(url, `CREATE DATABASE ${new URL(url).pathname.slice(1)}`);
  const db = await new DataSource({ ...dataSourceOptions(url, 2), migrations: MIGRATIONS.slice(0, including ? MINE + 1 : MINE) }).initialize();
  await db.runMigrations({ transaction: 'each' });
  return { url, db };
}

describe('Upgrade: users written by the previous release', () => {
  let t: TestApp;
  let url: string;
  const ids: Record<string, number> = {};
  let migrationLog = '';

  beforeAll(async () => {
    const old = await databaseBeforeAccounts();
    url = old.url;
    const insert = async (key: string, username: string, role: string, password: string | null, active = true) => {
      const hash = password === null ? null : await bcrypt.hash(password, 4);
      const [row] = await old.db.query(`INSERT INTO users (username, password_hash, role, active) VALUES ($1, $2, $3, $4) RETURNING id`, [username, hash, role, active]);
      ids[key] = row.id;
    };
    await insert('admin', ADMIN.username, 'ADMIN', ADMIN.password);
    await insert('cashier', 'Cashier', 'OPERATOR', 'old-pw-1'); // 8 characters: the old minimum
    await insert('ops', 'ops', 'OPERATOR', 'ops-password-1');
    await insert('opsWide', 'ＯＰＳ', 'COLLECTOR', 'wide-password-1'); // full-width: the same name once NFKC
    await insert('devWide', 'ｄｅｖ', 'OPERATOR', 'old-dev-password', false);
    await insert('dev', 'dev', 'OPERATOR', 'new-dev-password');
    await insert('customer', '256772555001', 'CUSTOMER', null);
    await insert('turkish', 'İnci', 'COLLECTOR', 'inci-password-1');
    await old.db.destroy();

    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      migrationLog += String(chunk);
      return true;
    });
    try {
      t = await startTestApp({ databaseUrl: url, env: { SIGNIN_ADDRESS_LIMIT: '1000' } });
    } finally {
      write.mockRestore();
    }
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await dropTestDatabase(url);
  });

  const rows = async () =>
    Object.fromEntries(
      (await t.db.query(`SELECT id, username, username_canonical AS canonical, active, token_version FROM users ORDER BY id`)).map((r: { id: number }) => [r.id, r]),
    );

  it('keeps every user and gives each its canonical username', async () => {
    const after = await rows();
    expect(Object.keys(after)).toHaveLength(8);
    expect(after[ids.admin]).toMatchObject({ username: 'admin', canonical: 'admin', active: true });
    expect(after[ids.cashier]).toMatchObject({ username: 'Cashier', canonical: 'cashier', active: true });
    expect(after[ids.customer]).toMatchObject({ username: '256772555001', canonical: '256772555001', active: true });
    expect(after[ids.turkish]).toMatchObject({ username: 'İnci', canonical: 'inci', active: true });
  });

  it('keeps the earlier user of two that collide once canonical, disables the later one and says so in the log', async () => {
    const after = await rows();
    expect(after[ids.ops]).toMatchObject({ canonical: 'ops', active: true });
    expect(after[ids.opsWide]).toMatchObject({ username: 'ＯＰＳ', canonical: null, active: false, token_version: 2 });
    // an active user is kept before an older disabled one
    expect(after[ids.dev]).toMatchObject({ canonical: 'dev', active: true });
    expect(after[ids.devWide]).toMatchObject({ username: 'ｄｅｖ', canonical: null, active: false });
    expect(migrationLog).toContain(`user ${ids.opsWide} disabled by the canonical-username migration: the username is user ${ids.ops}'s once letter case is ignored`);
    expect(migrationLog).toContain(`user ${ids.devWide} disabled by the canonical-username migration: the username is user ${ids.dev}'s`);
    expect(migrationLog).not.toMatch(/password|\$2[aby]\$/);
  });

  it('signs old users in with their old passwords, in any letter case, and rehashes them with argon2id', async () => {
    const cases: [string, string, number][] = [
      [ADMIN.username, ADMIN.password, ids.admin],
      ['cashier', 'old-pw-1', ids.cashier],
      ['CASHIER', 'old-pw-1', ids.cashier],
      ['OPS', 'ops-password-1', ids.ops],
      ['dev', 'new-dev-password', ids.dev],
      ['inci', 'inci-password-1', ids.turkish],
    ];
    for (const [username, password, id] of cases) {
      const res = await t.http.post('/api/auth/signin').send({ username, password }).expect(200);
      expect(res.body.id).toBe(id);
    }
    const hashes: { id: number; password_hash: string }[] = await t.db.query(`SELECT id, password_hash FROM users WHERE id = ANY($1)`, [[ids.admin, ids.cashier, ids.ops, ids.dev, ids.turkish]]);
    for (const row of hashes) expect(row.password_hash).toMatch(/^\$argon2id\$/);
    // the quarantined user cannot sign in, not even with its own password
    await t.http.post('/api/auth/signin').send({ username: 'ＯＰＳ', password: 'wide-password-1' }).expect(401);
  });

  it('refuses to enable a user whose name collides (409), and lets the admin see it disabled', async () => {
    const admin = await t.token(Role.ADMIN);
    const res = await t.http.post('/finance/users/enable').set('x-access-token', admin).send({ id: ids.opsWide }).expect(409);
    expect(res.body).toEqual({ message: `User ${ids.opsWide} cannot be enabled: its username is another user's once letter case is ignored.` });
    const list = await t.http.get('/finance/users?limit=100').set('x-access-token', admin).expect(200);
    expect(list.body.items.find((u: { id: number }) => u.id === ids.opsWide)).toMatchObject({ username: 'ＯＰＳ', active: false });
  });

  it('makes a new user that collides with an old one a 409', async () => {
    const res = await t.http.post('/finance/users/create').set('x-access-token', await t.token(Role.ADMIN)).send({ username: 'CASHIER', password: 'cashier-password-2', role: 'OPERATOR' }).expect(409);
    expect(res.body).toEqual({ message: 'Username CASHIER is already taken.' });
  });
});

describe('Upgrade: the accounts migration goes down and up again', () => {
  it('restores the previous schema on down, keeping every user', async () => {
    const { url, db } = await databaseBeforeAccounts(true);
    try {
      await db.query(`INSERT INTO users (username, username_canonical, password_hash, role) VALUES ('Someone', 'someone', 'x', 'OPERATOR')`);
      await db.undoLastMigration({ transaction: 'each' });
      const columns = (await db.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'users'`)).map((r: { column_name: string }) => r.column_name);
      expect(columns).not.toContain('username_canonical');
      expect(columns).not.toContain('token_version');
      expect(await db.query(`SELECT to_regclass('signin_attempts') AS t`)).toEqual([{ t: null }]);
      await expect(db.query(`INSERT INTO users (username, role) VALUES ('SOMEONE', 'OPERATOR')`)).rejects.toMatchObject({ code: '23505' });
      await db.runMigrations({ transaction: 'each' });
      expect(await db.query(`SELECT username, username_canonical AS canonical FROM users`)).toEqual([{ username: 'Someone', canonical: 'someone' }]);
    } finally {
      await db.destroy();
      await dropTestDatabase(url);
    }
  });
});
