import { ADMIN, createTestDatabase, dropTestDatabase } from './support/test-app.js';
import { api, Instance, signIn, startInstance } from './support/instances.js';

/**
 * Two service processes on one database: a token ended on one (password changed, user disabled,
 * signed out) is refused there at once and on the other within the user cache's 5 seconds (DESIGN
 * part 3), whichever instance issued it.
 */
describe('Ending tokens across two instances', () => {
  let databaseUrl: string;
  let a: Instance;
  let b: Instance;
  let admin: string;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    [a, b] = await Promise.all([startInstance(databaseUrl), startInstance(databaseUrl)]);
    admin = await signIn(a.url, ADMIN.username, ADMIN.password);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await dropTestDatabase(databaseUrl);
  });

  let n = 0;
  /** A fresh operator with a token from each instance, both already used on both (so both caches hold the user). */
  async function operator() {
    const username = `instances-${++n}`;
    const created = await api(a.url, '/finance/users/create', admin, { username, password: 'instances-password-1', role: 'OPERATOR' });
    expect(created.status).toBe(201);
    const tokens = { fromA: await signIn(a.url, username, 'instances-password-1'), fromB: await signIn(b.url, username, 'instances-password-1') };
    for (const instance of [a, b]) for (const token of Object.values(tokens)) expect((await api(instance.url, '/finance/customers?page=1&limit=1', token)).status).toBe(200);
    return { id: created.body.id as number, ...tokens };
  }

  /** How long until `token` is refused on `instance` (ms), polling; Infinity past 8 s. */
  async function refusedAfter(instance: Instance, token: string, since: number): Promise<number> {
    while (Date.now() - since < 8_000) {
      const res = await api(instance.url, '/finance/customers?page=1&limit=1', token);
      if (res.status === 401) {
        expect(res.body).toEqual({ message: 'Unauthorized!' });
        return Date.now() - since;
      }
      expect(res.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return Infinity;
  }

  it.each([
    ['a password change', (id: number) => api(a.url, '/finance/users/password', admin, { id, password: 'instances-password-2' })],
    ['a disable', (id: number) => api(a.url, '/finance/users/disable', admin, { id })],
  ])('%s on one instance ends the user’s tokens there at once and on the other within 5 s', async (_name, end) => {
    const u = await operator();
    expect((await end(u.id)).status).toBe(200);
    const since = Date.now();
    for (const token of [u.fromA, u.fromB]) expect((await api(a.url, '/finance/customers?page=1&limit=1', token)).status).toBe(401);
    for (const token of [u.fromA, u.fromB]) expect(await refusedAfter(b, token, since)).toBeLessThanOrEqual(5_500);
  }, 60_000);

  it('a sign-out on one instance ends that token there at once and on the other within 5 s, and no other', async () => {
    const u = await operator();
    expect((await api(a.url, '/api/auth/signout', u.fromB, {})).status).toBe(200);
    const since = Date.now();
    expect((await api(a.url, '/finance/customers?page=1&limit=1', u.fromB)).status).toBe(401);
    expect(await refusedAfter(b, u.fromB, since)).toBeLessThanOrEqual(5_500);
    for (const instance of [a, b]) expect((await api(instance.url, '/finance/customers?page=1&limit=1', u.fromA)).status).toBe(200);
  }, 60_000);
});
