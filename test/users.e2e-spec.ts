import { jest } from '@jest/globals';
import { Role } from '../src/common/auth/role.js';
import { UsersRepository } from '../src/modules/users/infrastructure/users.repository.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('Users (ADMIN only)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { SIGNIN_ADDRESS_LIMIT: '1000' } });
    admin = await t.token(Role.ADMIN);
  });
  afterAll(() => t.close());

  it('creates a staff user (201 {id, username, role}) who can then sign in', async () => {
    const res = await t.http.post('/finance/users/create').set('x-access-token', admin).send({ username: 'cashier1', password: 'cashier-pass-1', role: 'OPERATOR' }).expect(201);
    expect(res.body).toEqual({ id: expect.any(Number), username: 'cashier1', role: 'OPERATOR' });
    const signIn = await t.http.post('/api/auth/signin').send({ username: 'cashier1', password: 'cashier-pass-1' }).expect(200);
    expect(signIn.body.role).toBe('OPERATOR');
  });

  it('refuses a staff username that is a telephone number in international form: it would block that customer', async () => {
    const res = await t.http.post('/finance/users/create').set('x-access-token', admin).send({ username: '+256772555040', password: 'another-password-1', role: 'COLLECTOR' }).expect(400);
    expect(res.body).toEqual({ message: 'username must not be a telephone number in international form: customers are known by theirs' });
  });

  it('refuses a taken username, case-insensitively, with 409', async () => {
    await t.http.post('/finance/users/create').set('x-access-token', admin).send({ username: 'dup-user', password: 'password-123', role: 'COLLECTOR' }).expect(201);
    const res = await t.http.post('/finance/users/create').set('x-access-token', admin).send({ username: 'DUP-user', password: 'password-123', role: 'COLLECTOR' }).expect(409);
    expect(res.body).toEqual({ message: 'Username DUP-user is already taken.' });
  });

  it('answers 400 naming every bad field: short password, unknown role, CUSTOMER role, extra field', async () => {
    const res = await t.http.post('/finance/users/create').set('x-access-token', admin).send({ username: 'x', password: 'short', role: 'CUSTOMER', extra: 1 }).expect(400);
    for (const word of ['username', 'password', 'role', 'extra']) expect(res.body.message).toContain(word);
  });

  it('lists users, paged, without any password or hash', async () => {
    const res = await t.http.get('/finance/users?page=1&limit=2').set('x-access-token', admin).expect(200);
    expect(res.body).toMatchObject({ page: 1, limit: 2, total: expect.any(Number) });
    expect(res.body.items.length).toBeLessThanOrEqual(2);
    expect(res.body.items[0]).toEqual({ id: 1, username: 'admin', role: 'ADMIN', active: true, createdat: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/password|\$2[aby]\$|\$argon2/);
  });

  it('lists staff only unless a role is asked for: customers’ identities do not bury the staff', async () => {
    const { dealid } = await createDeal(t);
    const registered = await registerCustomer(t, dealid);
    const all = (await t.http.get('/finance/users?limit=100').set('x-access-token', admin).expect(200)).body;
    expect(all.items.map((u: { role: string }) => u.role)).not.toContain('CUSTOMER');
    expect(all.total).toBe(all.items.length);
    const customers = (await t.http.get('/finance/users?role=CUSTOMER&limit=100').set('x-access-token', admin).expect(200)).body;
    expect(customers.items).toEqual([expect.objectContaining({ username: registered.telephone, role: 'CUSTOMER' })]);
    const operators = (await t.http.get('/finance/users?role=OPERATOR&limit=100').set('x-access-token', admin).expect(200)).body.items;
    expect(operators.length).toBeGreaterThan(0);
    expect(operators.every((u: { role: string }) => u.role === 'OPERATOR')).toBe(true);
    expect((await t.http.get('/finance/users?role=BOSS').set('x-access-token', admin).expect(400)).body).toEqual({ message: 'role must be one of ADMIN, OPERATOR, COLLECTOR, PROVIDER, CUSTOMER' });
  });

  it('refuses a bad page or limit with 400', async () => {
    await t.http.get('/finance/users?page=0').set('x-access-token', admin).expect(400);
    await t.http.get('/finance/users?limit=101').set('x-access-token', admin).expect(400);
    await t.http.get('/finance/users?limit=abc').set('x-access-token', admin).expect(400);
  });

  it('disables a user (404 for an unknown id, 409 for yourself)', async () => {
    const u = await t.user(Role.COLLECTOR);
    const res = await t.http.post('/finance/users/disable').set('x-access-token', admin).send({ id: u.id }).expect(200);
    expect(res.body).toMatchObject({ id: u.id, active: false });
    expect((await t.http.post('/finance/users/disable').set('x-access-token', admin).send({ id: 99999 }).expect(404)).body).toEqual({ message: 'User 99999 not found.' });
    expect((await t.http.post('/finance/users/disable').set('x-access-token', admin).send({ id: 1 }).expect(409)).body).toEqual({ message: 'You cannot disable your own account.' });
    await t.http.post('/finance/users/disable').set('x-access-token', admin).send({ id: '2' }).expect(400);
  });

  it('changes a password: the old one stops working, the new one works', async () => {
    const u = await t.user(Role.OPERATOR);
    const res = await t.http.post('/finance/users/password').set('x-access-token', admin).send({ id: u.id, password: 'brand-new-pass' }).expect(200);
    expect(res.body).toEqual({ message: 'Password changed.' });
    await t.http.post('/api/auth/signin').send({ username: u.username, password: u.password }).expect(401);
    await t.http.post('/api/auth/signin').send({ username: u.username, password: 'brand-new-pass' }).expect(200);
    await t.http.post('/finance/users/password').set('x-access-token', admin).send({ id: 424242, password: 'brand-new-pass' }).expect(404);
    await t.http.post('/finance/users/password').set('x-access-token', admin).send({ id: u.id, password: 'short' }).expect(400);
  });

  /**
   * A request whose user read was answered before a password change or a disable committed, but
   * handled after it: its answer may serve that request, never the ones after it (the user cache).
   * The read is the real one, held back after PostgreSQL answered it.
   */
  it.each([
    ['a password change', (id: number) => t.http.post('/finance/users/password').set('x-access-token', admin).send({ id, password: 'another-new-pass' }).expect(200)],
    ['a disable', (id: number) => t.http.post('/finance/users/disable').set('x-access-token', admin).send({ id }).expect(200)],
  ])('ends the old token at once even when a request read its user just before %s', async (_change, change) => {
    const u = await t.user(Role.OPERATOR);
    const token = (await t.http.post('/api/auth/signin').send({ username: u.username, password: u.password }).expect(200)).body.accessToken;
    const users = t.app.get(UsersRepository);
    const findById = users.findById.bind(users);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let answered!: () => void;
    const read = new Promise<void>((resolve) => (answered = resolve));
    const spy = jest.spyOn(users, 'findById').mockImplementationOnce(async (id, em) => {
      const row = await findById(id, em);
      answered();
      await held;
      return row;
    });
    try {
      const racing = t.http.get('/finance/customers/status-summary').set('x-access-token', token).then((r) => r.status);
      await read;
      await change(u.id);
      release();
      await racing;
      const after = await t.http.get('/finance/customers/status-summary').set('x-access-token', token);
      expect(after.status).toBe(401);
    } finally {
      spy.mockRestore();
    }
  });

  it.each([
    ['11 characters', 'a'.repeat(11), 'password must be at least 12 characters'],
    ['129 characters', 'a'.repeat(129), 'password must be at most 128 characters'],
    ['twelve spaces', ' '.repeat(12), 'password must not be only whitespace'],
    ['only tabs, spaces and line breaks', ' \t\n'.repeat(5), 'password must not be only whitespace'],
    ['eight spaces', ' '.repeat(8), 'password must be at least 12 characters'],
    ['a number', 123456789012, 'password must be a string'],
  ])('refuses a password of %s on users/create and users/password (400 naming password)', async (_name, password, message) => {
    const created = await t.http.post('/finance/users/create').set('x-access-token', admin).send({ username: 'pw-rules', password, role: 'OPERATOR' }).expect(400);
    expect(created.body).toEqual({ message });
    const changed = await t.http.post('/finance/users/password').set('x-access-token', admin).send({ id: 1, password }).expect(400);
    expect(changed.body).toEqual({ message });
  });

  it('accepts 12 and 128 characters, and every character counts (bcrypt ignored all after 72 bytes)', async () => {
    const long = 'x'.repeat(100) + 'tail-that-matters-123456';
    const u = await t.http.post('/finance/users/create').set('x-access-token', admin).send({ username: 'long-pass', password: long.slice(0, 128), role: 'OPERATOR' }).expect(201);
    await t.http.post('/api/auth/signin').send({ username: 'long-pass', password: long.slice(0, 127) + '!' }).expect(401);
    await t.http.post('/api/auth/signin').send({ username: 'long-pass', password: 'x'.repeat(72) }).expect(401);
    await t.http.post('/api/auth/signin').send({ username: 'long-pass', password: long.slice(0, 128) }).expect(200);
    await t.http.post('/finance/users/password').set('x-access-token', admin).send({ id: u.body.id, password: 'twelve-chars' }).expect(200);
    await t.http.post('/api/auth/signin').send({ username: 'long-pass', password: 'twelve-chars' }).expect(200);
  });

  it('refuses a username with a line break or a control character (400 naming username)', async () => {
    for (const username of ['bad\nname', 'bad\tname', 'bad\u0085name']) {
      const res = await t.http.post('/finance/users/create').set('x-access-token', admin).send({ username, password: 'password-1234', role: 'OPERATOR' }).expect(400);
      expect(res.body.message).toContain('username');
    }
  });

  it('enables a disabled user (200 with the user; 404 for an unknown id; 400 for a bad id)', async () => {
    const u = await t.user(Role.OPERATOR);
    await t.http.post('/finance/users/disable').set('x-access-token', admin).send({ id: u.id }).expect(200);
    await t.http.post('/api/auth/signin').send({ username: u.username, password: u.password }).expect(401);
    const res = await t.http.post('/finance/users/enable').set('x-access-token', admin).send({ id: u.id }).expect(200);
    expect(res.body).toEqual({ id: u.id, username: u.username, role: 'OPERATOR', active: true, createdat: expect.any(String) });
    await t.http.post('/api/auth/signin').send({ username: u.username, password: u.password }).expect(200);
    // enabling an active user changes nothing
    await t.http.post('/finance/users/enable').set('x-access-token', admin).send({ id: u.id }).expect(200);
    expect((await t.http.post('/finance/users/enable').set('x-access-token', admin).send({ id: 99999 }).expect(404)).body).toEqual({ message: 'User 99999 not found.' });
    await t.http.post('/finance/users/enable').set('x-access-token', admin).send({ id: '2' }).expect(400);
    await t.http.post('/finance/users/enable').set('x-access-token', admin).send({ id: u.id, extra: true }).expect(400);
  });

  it('documents users/enable in the OpenAPI document, ADMIN only', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const op = doc.paths['/finance/users/enable'].post;
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '500', '503']);
    expect(op.description).toContain('Roles: ADMIN.');
  });

  it('keeps every user route to ADMIN (403 for the other roles, 401 without token)', async () => {
    const calls: Array<[string, string, object?]> = [
      ['post', '/finance/users/create', { username: 'someone', password: 'password-123', role: 'OPERATOR' }],
      ['get', '/finance/users'],
      ['post', '/finance/users/disable', { id: 1 }],
      ['post', '/finance/users/password', { id: 1, password: 'password-123' }],
      ['post', '/finance/users/enable', { id: 1 }],
    ];
    for (const [method, path, body] of calls) {
      await (t.http as unknown as Record<string, (p: string) => import('supertest').Test>)[method](path).send(body).expect(401);
      for (const role of [Role.OPERATOR, Role.COLLECTOR, Role.PROVIDER]) {
        await (t.http as unknown as Record<string, (p: string) => import('supertest').Test>)[method](path).set('x-access-token', await t.token(role)).send(body).expect(403);
      }
    }
  });
});
