import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Role } from '../src/common/auth/role.js';
import { PasswordHasher } from '../src/modules/users/application/password-hasher.js';
import { api, Instance, signIn, startInstance } from './support/instances.js';
import { ADMIN, createTestDatabase, dropTestDatabase, startTestApp, TestApp } from './support/test-app.js';

const TOO_MANY = { message: 'Too many requests. Try again in a minute.' };
const randomName = () => `nobody-${randomBytes(6).toString('hex')}`;

describe('Accounts: the last administrator, under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SIGNIN_ADDRESS_LIMIT: '1000', SIGNIN_RATE_LIMIT: '1000' } });
  });
  afterAll(() => t.close());

  const activeAdmins = async () => (await t.db.query(`SELECT id FROM users WHERE role = 'ADMIN' AND active ORDER BY id`)).map((r: { id: number }) => r.id);
  const signIn = async (username: string, password: string) => (await t.http.post('/api/auth/signin').send({ username, password }).expect(200)).body.accessToken as string;

  it('keeps one active ADMIN when two admins disable each other at the same moment (one 200; the other 409, or 401 once its own account is gone)', async () => {
    const second = await t.user(Role.ADMIN);
    const admins = [
      { id: 1, username: ADMIN.username, password: ADMIN.password },
      { id: second.id, username: second.username, password: second.password },
    ];
    for (let round = 0; round < 6; round++) {
      const [a, b] = await Promise.all(admins.map((u) => signIn(u.username, u.password)));
      const answers = await Promise.all([
        t.http.post('/finance/users/disable').set('x-access-token', a).send({ id: admins[1].id }),
        t.http.post('/finance/users/disable').set('x-access-token', b).send({ id: admins[0].id }),
      ]);
      // exactly one disable goes through; the other is refused either by the last-admin rule (both requests
      // were past the guard) or, when the winner committed first, by the guard itself: its sender is disabled
      expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
      const won = answers.findIndex((res) => res.status === 200);
      const survivor = admins[won];
      const loser = admins[1 - won];
      const refused = answers[1 - won];
      if (refused.status === 409) expect(refused.body).toEqual({ message: `User ${survivor.id} is the last active administrator and cannot be disabled.` });
      else expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: { message: 'Unauthorized!' } });
      expect(await activeAdmins()).toEqual([survivor.id]);
      // the survivor brings the other back for the next round
      await t.http.post('/finance/users/enable').set('x-access-token', await signIn(survivor.username, survivor.password)).send({ id: loser.id }).expect(200);
    }
    expect(await activeAdmins()).toEqual([1, second.id]);
  });

  it('judges a disable by the rows it locks, not by a token that outlived its admin on another instance', async () => {
    // (not t.user: the helper's cached admin token may have ended when admin 1 lost a round above)
    const admin = await signIn(ADMIN.username, ADMIN.password);
    const make = async (role: Role) => {
      const username = `${role.toLowerCase()}-${randomBytes(4).toString('hex')}`;
      const res = await t.http.post('/finance/users/create').set('x-access-token', admin).send({ username, password: 'a-password-for-now', role }).expect(201);
      return { id: res.body.id as number, token: await signIn(username, 'a-password-for-now') };
    };
    const other = await make(Role.ADMIN);
    const operator = await make(Role.OPERATOR);
    for (const id of await activeAdmins()) if (id !== 1 && id !== other.id) await t.http.post('/finance/users/disable').set('x-access-token', admin).send({ id }).expect(200);
    await t.http.post('/finance/users/disable').set('x-access-token', other.token).send({ id: 1 }).expect(200);
    // admin 1 is disabled; its token might still be in another instance's user cache for a few seconds
    const { UsersService } = await import('../src/modules/users/application/users.service.js');
    const users = t.app.get(UsersService);
    const staleAdmin = { id: 1, username: 'admin', role: Role.ADMIN };
    await expect(users.disable(other.id, staleAdmin)).rejects.toMatchObject({ code: 'USER_LAST_ACTIVE_ADMIN' });
    await expect(users.disable(operator.id, staleAdmin)).rejects.toMatchObject({ code: 'TOKEN_REVOKED', message: 'Unauthorized!' });
    expect(await activeAdmins()).toEqual([other.id]);
    await t.http.post('/finance/users/enable').set('x-access-token', other.token).send({ id: 1 }).expect(200);
  });
});

describe('Accounts: sign-in limits in PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SIGNIN_ADDRESS_LIMIT: '5', SIGNIN_RATE_LIMIT: '3' } });
  });
  afterAll(() => t.close());

  it('answers 429 once an address has used SIGNIN_ADDRESS_LIMIT with random usernames, before any password is hashed', async () => {
    const hasher = t.app.get(PasswordHasher);
    const verify = jest.spyOn(hasher, 'verify');
    const hash = jest.spyOn(hasher, 'hash');
    try {
      for (let i = 0; i < 5; i++) await t.http.post('/api/auth/signin').send({ username: randomName(), password: 'guess-guess-1' }).expect(401);
      expect(verify).toHaveBeenCalledTimes(5);
      for (let i = 0; i < 5; i++) {
        const res = await t.http.post('/api/auth/signin').send({ username: randomName(), password: 'guess-guess-1' }).expect(429);
        expect(res.body).toEqual(TOO_MANY);
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
      }
      // whatever the username, the right password included
      await t.http.post('/api/auth/signin').send(ADMIN).expect(429);
      expect(verify).toHaveBeenCalledTimes(5);
      expect(hash).not.toHaveBeenCalled();
    } finally {
      verify.mockRestore();
      hash.mockRestore();
    }
    // the count is in the database, not the process
    const rows = await t.db.query(`SELECT key, points FROM signin_attempts WHERE key LIKE 'addr:%'`);
    expect(rows).toEqual([{ key: expect.stringMatching(/^addr:.*127\.0\.0\.1$/), points: expect.any(Number) }]);
    // 5: once an address has used its minute, this instance refuses it from memory, without a round trip
    expect(rows[0].points).toBe(5);
    // keys never hold a username
    const all: { key: string }[] = await t.db.query(`SELECT key FROM signin_attempts`);
    expect(all.map((r) => r.key).join(' ')).not.toContain('nobody-');
  });
});

/** Real processes (npm test builds first): in one process, Passport's strategies are global, so two apps would share one user cache. */
describe('Accounts: sign-in limits behind a reverse proxy (TRUST_PROXY)', () => {
  const attempt = (t: TestApp, forwardedFor: string) =>
    t.http.post('/api/auth/signin').set('X-Forwarded-For', forwardedFor).send({ username: randomName(), password: 'guess-guess-1' });

  it('counts each client behind the proxy on its own address, so one client cannot lock all staff out', async () => {
    const t = await startTestApp({ env: { SIGNIN_ADDRESS_LIMIT: '3', TRUST_PROXY: '127.0.0.1' } });
    try {
      for (let i = 0; i < 3; i++) await attempt(t, '203.0.113.7').expect(401);
      expect((await attempt(t, '203.0.113.7').expect(429)).body).toEqual(TOO_MANY);
      // another shop's counter, through the same proxy
      await attempt(t, '198.51.100.20').expect(401);
      await t.http.post('/api/auth/signin').set('X-Forwarded-For', '198.51.100.20').send(ADMIN).expect(200);
    } finally {
      await t.close();
    }
  });

  it('ignores X-Forwarded-For from anyone else: a client cannot pick a fresh address per attempt', async () => {
    const t = await startTestApp({ env: { SIGNIN_ADDRESS_LIMIT: '3', TRUST_PROXY: '10.9.9.9' } });
    try {
      for (let i = 0; i < 3; i++) await attempt(t, `203.0.113.${i}`).expect(401);
      await attempt(t, '203.0.113.99').expect(429);
    } finally {
      await t.close();
    }
  });
});

describe('Accounts: two service processes on one database', () => {
  let databaseUrl: string;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    [a, b] = await Promise.all([startInstance(databaseUrl, { SIGNIN_RATE_LIMIT: '4' }), startInstance(databaseUrl, { SIGNIN_RATE_LIMIT: '4' })]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((i) => i.stop()));
    await dropTestDatabase(databaseUrl);
  });

  it('counts sign-in attempts per username across instances, letter-case variants together', async () => {
    const attempt = (i: Instance, username: string) => api(i.url, '/api/auth/signin', undefined, { username, password: 'wrong-password-1' });
    expect((await attempt(a, 'shared-count')).status).toBe(401);
    expect((await attempt(b, 'SHARED-count')).status).toBe(401);
    expect((await attempt(a, 'shared-COUNT')).status).toBe(401);
    expect((await attempt(b, 'Shared-Count')).status).toBe(401);
    expect(await attempt(a, 'shared-count')).toEqual({ status: 429, body: TOO_MANY });
    expect(await attempt(b, 'shared-count')).toEqual({ status: 429, body: TOO_MANY });
  });

  it('ends a token on every instance within seconds when its user is disabled or their password changes', async () => {
    const admin = await signIn(a.url, ADMIN.username, ADMIN.password);
    const make = async (username: string, role: Role) => {
      const res = await api(a.url, '/finance/users/create', admin, { username, password: 'first-password-1', role });
      expect(res.status).toBe(201);
      return { id: res.body.id as number, token: await signIn(a.url, username, 'first-password-1') };
    };
    const disabled = await make('to-be-disabled', Role.OPERATOR);
    const changed = await make('to-be-changed', Role.COLLECTOR);
    const read = (i: Instance, token: string) => api(i.url, '/finance/customers?page=1&limit=1', token);
    // both instances have both users in their cache
    for (const i of [a, b]) for (const u of [disabled, changed]) expect((await read(i, u.token)).status).toBe(200);
    expect((await api(a.url, '/finance/users/disable', admin, { id: disabled.id })).status).toBe(200);
    expect((await api(a.url, '/finance/users/password', admin, { id: changed.id, password: 'replaced-password-1' })).status).toBe(200);
    const started = Date.now();
    // at once on the instance that made the change
    for (const u of [disabled, changed]) expect(await read(a, u.token)).toEqual({ status: 401, body: { message: 'Unauthorized!' } });
    // within the user cache's 5 s on the other
    for (const u of [disabled, changed]) {
      let res = await read(b, u.token);
      while (res.status === 200 && Date.now() - started < 8000) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        res = await read(b, u.token);
      }
      expect(res).toEqual({ status: 401, body: { message: 'Unauthorized!' } });
    }
    expect(Date.now() - started).toBeLessThan(6500);
    expect((await api(b.url, '/api/auth/signin', undefined, { username: 'to-be-changed', password: 'replaced-password-1' })).status).toBe(200);
  }, 30_000);
});
