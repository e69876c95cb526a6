import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Role } from '../src/common/auth/role.js';
import { ADMIN, startTestApp, TestApp, TEST_JWT_SECRET } from './support/test-app.js';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('Authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const claimsFor = (id: number, role: Role, username: string) => ({ sub: id, username, role, env: 'uat' });

  describe('POST /api/auth/signin', () => {
    it('answers id, username, role and an HS256 token carrying the documented claims', async () => {
      const res = await t.http.post('/api/auth/signin').send(ADMIN).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['accessToken', 'id', 'role', 'username']);
      expect(res.body).toMatchObject({ id: 1, username: 'admin', role: 'ADMIN' });
      const decoded = jwt.decode(res.body.accessToken, { complete: true }) as jwt.Jwt;
      expect(decoded.header.alg).toBe('HS256');
      const payload = decoded.payload as jwt.JwtPayload;
      expect(payload).toMatchObject({ sub: 1, username: 'admin', role: 'ADMIN', env: 'uat', iss: 'payg-uat' });
      expect(payload.exp! - payload.iat!).toBe(24 * 3600);
    });

    it('refuses a wrong password and an unknown user with the same message', async () => {
      const wrong = await t.http.post('/api/auth/signin').send({ username: 'admin', password: 'not-the-password' }).expect(401);
      const unknown = await t.http.post('/api/auth/signin').send({ username: 'nobody-here', password: 'whatever-123' }).expect(401);
      expect(wrong.body).toEqual({ message: 'Invalid username or password.' });
      expect(unknown.body).toEqual({ message: 'Invalid username or password.' });
    });

    it('answers 400 naming every missing field', async () => {
      const res = await t.http.post('/api/auth/signin').send({}).expect(400);
      expect(res.body.message).toContain('username');
      expect(res.body.message).toContain('password');
      expect(Object.keys(res.body)).toEqual(['message']);
    });

    it('never returns the password or its hash', async () => {
      const res = await t.http.post('/api/auth/signin').send(ADMIN).expect(200);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(ADMIN.password);
      expect(text).not.toMatch(/\$2[aby]\$/);
    });

    it('limits sign-in attempts per username and address with 429 {message}', async () => {
      const attempt = () => t.http.post('/api/auth/signin').send({ username: 'brute-force-target', password: 'guess-guess' });
      for (let i = 0; i < 10; i++) expect((await attempt()).status).toBe(401);
      const limited = await attempt().expect(429);
      expect(limited.body).toEqual({ message: 'Too many requests. Try again in a minute.' });
      // another username from the same address is still served
      await t.http.post('/api/auth/signin').send(ADMIN).expect(200);
    });
  });

  describe('the guard on /finance/ routes', () => {
    it('answers 401 "No token provided." when the header is absent', async () => {
      const res = await t.http.get('/finance/users').expect(401);
      expect(res.body).toEqual({ message: 'No token provided.' });
    });

    it('answers the expired message for an expired token', async () => {
      const token = jwt.sign({ ...claimsFor(1, Role.ADMIN, 'admin'), exp: Math.floor(Date.now() / 1000) - 10 }, TEST_JWT_SECRET, { algorithm: 'HS256', issuer: 'payg-uat' });
      const res = await t.http.get('/finance/users').set('x-access-token', token).expect(401);
      expect(res.body).toEqual({ message: 'Unauthorized! Access Token was expired!' });
    });

    it.each([
      ['a bad signature', () => jwt.sign(claimsFor(1, Role.ADMIN, 'admin'), 'another-secret-another-secret-1234', { algorithm: 'HS256', issuer: 'payg-uat', expiresIn: 3600 })],
      ['alg none', () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claimsFor(1, Role.ADMIN, 'admin'), iss: 'payg-uat', exp: Math.floor(Date.now() / 1000) + 3600 })}.`],
      ['the other environment’s issuer', () => jwt.sign({ ...claimsFor(1, Role.ADMIN, 'admin'), env: 'production' }, TEST_JWT_SECRET, { algorithm: 'HS256', issuer: 'payg-production', expiresIn: 3600 })],
      ['the right issuer but another env claim', () => jwt.sign({ ...claimsFor(1, Role.ADMIN, 'admin'), env: 'production' }, TEST_JWT_SECRET, { algorithm: 'HS256', issuer: 'payg-uat', expiresIn: 3600 })],
      ['HS512 with the right secret', () => jwt.sign(claimsFor(1, Role.ADMIN, 'admin'), TEST_JWT_SECRET, { algorithm: 'HS512', issuer: 'payg-uat', expiresIn: 3600 })],
      ['garbage', () => 'not-a-jwt'],
      ['a user that does not exist', () => jwt.sign(claimsFor(9999, Role.ADMIN, 'ghost'), TEST_JWT_SECRET, { algorithm: 'HS256', issuer: 'payg-uat', expiresIn: 3600 })],
      ['a tampered payload', () => {
        const good = jwt.sign(claimsFor(1, Role.COLLECTOR, 'admin'), TEST_JWT_SECRET, { algorithm: 'HS256', issuer: 'payg-uat', expiresIn: 3600 });
        const [h, , s] = good.split('.');
        return `${h}.${b64({ ...claimsFor(1, Role.ADMIN, 'admin'), iss: 'payg-uat', exp: Math.floor(Date.now() / 1000) + 3600 })}.${s}`;
      }],
    ])('answers 401 "Unauthorized!" for %s', async (_name, makeToken) => {
      const res = await t.http.get('/finance/users').set('x-access-token', makeToken()).expect(401);
      expect(res.body).toEqual({ message: 'Unauthorized!' });
    });

    it('accepts a hand-made HS256 token with the right secret, issuer and env (the guard checks, not the sign-in)', async () => {
      const header = b64({ alg: 'HS256', typ: 'JWT' });
      const payload = b64({ ...claimsFor(1, Role.ADMIN, 'admin'), iss: 'payg-uat', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 60 });
      const signature = createHmac('sha256', TEST_JWT_SECRET).update(`${header}.${payload}`).digest('base64url');
      await t.http.get('/finance/users').set('x-access-token', `${header}.${payload}.${signature}`).expect(200);
    });

    it('stops a disabled user’s existing token at once', async () => {
      const operator = await t.user(Role.ADMIN);
      await t.http.get('/finance/users').set('x-access-token', operator.token).expect(200);
      await t.http.post('/finance/users/disable').set('x-access-token', await t.token(Role.ADMIN)).send({ id: operator.id }).expect(200);
      const res = await t.http.get('/finance/users').set('x-access-token', operator.token).expect(401);
      expect(res.body).toEqual({ message: 'Unauthorized!' });
      const signIn = await t.http.post('/api/auth/signin').send({ username: operator.username, password: operator.password }).expect(401);
      expect(signIn.body).toEqual({ message: 'Invalid username or password.' });
    });

    it('answers 403 "Forbidden." to a role the route does not allow', async () => {
      for (const role of [Role.OPERATOR, Role.COLLECTOR, Role.PROVIDER]) {
        const res = await t.http.get('/finance/users').set('x-access-token', await t.token(role)).expect(403);
        expect(res.body).toEqual({ message: 'Forbidden.' });
      }
    });
  });
});
