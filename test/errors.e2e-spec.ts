import { Role } from '../src/common/auth/role.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('Errors: every answer is {message}', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token(Role.ADMIN);
  });
  afterAll(() => t.close());

  const post = (path: string) => t.http.post(path).set('x-access-token', admin);
  const usersCount = async () => Number((await t.db.query('SELECT count(*)::int AS n FROM users'))[0].n);

  it('answers malformed JSON with 400', async () => {
    const res = await post('/finance/users/create').set('content-type', 'application/json').send('{"username": "a",').expect(400);
    expect(res.body).toEqual({ message: 'Malformed JSON in request body.' });
  });

  it('answers a body over 100 kB with 413 and stores nothing', async () => {
    const before = await usersCount();
    const res = await post('/finance/users/create').send({ username: 'big', password: 'x'.repeat(110 * 1024), role: 'OPERATOR' }).expect(413);
    expect(res.body).toEqual({ message: 'Request body is larger than the 100 kB limit.' });
    expect(await usersCount()).toBe(before);
  });

  it('answers a non-JSON content type with 415', async () => {
    const res = await post('/finance/users/create').set('content-type', 'text/plain').send('username=a').expect(415);
    expect(res.body).toEqual({ message: 'Unsupported Content-Type: send application/json.' });
  });

  it('answers a JSON body that is not an object with 400', async () => {
    for (const body of ['[1,2]', '"text"', '42', 'null']) {
      const res = await post('/finance/users/create').set('content-type', 'application/json').send(body).expect(400);
      expect(Object.keys(res.body)).toEqual(['message']);
    }
  });

  it('refuses __proto__ keys with 400', async () => {
    const res = await post('/finance/users/create').set('content-type', 'application/json').send('{"__proto__": {"role": "ADMIN"}, "username": "proto", "password": "password-123", "role": "OPERATOR"}').expect(400);
    expect(Object.keys(res.body)).toEqual(['message']);
  });

  it('names every bad field in one 400 message and stores nothing', async () => {
    const before = await usersCount();
    const res = await post('/finance/users/create').send({ username: 5, password: null, role: 'KING', isAdmin: true }).expect(400);
    expect(res.body.message).toMatch(/username.*password.*role|role.*username/s);
    expect(res.body.message).toContain('property isAdmin should not exist');
    expect(await usersCount()).toBe(before);
  });

  it('does not coerce types: "5" is not an integer', async () => {
    const res = await post('/finance/users/disable').send({ id: '5' }).expect(400);
    expect(res.body.message).toContain('id must be an integer number');
  });

  it('answers an unknown route with 404 {message}', async () => {
    const res = await t.http.get('/finance/nothing-here').set('x-access-token', admin).expect(404);
    expect(res.body).toEqual({ message: 'Cannot GET /finance/nothing-here' });
    const other = await t.http.post('/nowhere').expect(404);
    expect(Object.keys(other.body)).toEqual(['message']);
  });

  it('answers an unexpected failure with 500 "Internal server error." and no detail', async () => {
    // Break the schema under the running service: the next read fails in a way no client caused.
    await t.db.query('ALTER TABLE users RENAME COLUMN active TO active_renamed');
    try {
      const res = await t.http.get('/finance/users').set('x-access-token', admin).expect(500);
      expect(res.body).toEqual({ message: 'Internal server error.' });
    } finally {
      await t.db.query('ALTER TABLE users RENAME COLUMN active_renamed TO active');
    }
  });
});
