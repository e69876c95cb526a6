import { createHmac } from 'node:crypto';
import bcrypt from 'bcryptjs';
import jwt from 'jsonwebtoken';
import { Role } from '../src/common/auth/role.js';
import { ADMIN, startTestApp, TestApp, TEST_JWT_SECRET } from './support/test-app.js';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('Authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    // many sign-ins from one address in this file: the per-address limit has its own tests
    t = await startTestApp({ env: { SIGNIN_ADDRESS_LIMIT: '1000' } });
  });
  afterAll(() => t.close());

  const claimsFor = (id: number, role: Role, username: string, ver = 1) => ({ sub: id, username, role, env: 'uat', ver });

  describe('POST /api/auth/signin', () => {
    it('answers id, username, role and an HS256 token carrying the documented claims', async () => {
      const res = await t.http.post('/api/auth/signin').send(ADMIN).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['accessToken', 'id', 'role', 'username']);
      expect(res.body).toMatchObject({ id: 1, username: 'admin', role: 'ADMIN' });
      const decoded = jwt.decode(res.body.accessToken, { complete: true }) as jwt.Jwt;
      expect(decoded.header.alg).toBe('HS256');
      const payload = decoded.payload as jwt.JwtPayload;
      expect(payload).toMatchObject({ sub: 1, username: 'admin', role: 'ADMIN', env: 'uat', iss: 'payg-uat', ver: 1 });
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
      expect(text).not.toMatch(/\$2[aby]\$|\$argon2/);
    });

    it('stores passwords as argon2id hashes', async () => {
      const u = await t.user(Role.OPERATOR);
      const [row] = await t.db.query('SELECT password_hash FROM users WHERE id = $1', [u.id]);
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('signs in with an old bcrypt hash once, then holds an argon2id hash for the same password', async () => {
      const u = await t.user(Role.COLLECTOR);
      const old = await bcrypt.hash(u.password, 10);
      await t.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [u.id, old]);
      await t.http.post('/api/auth/signin').send({ username: u.username, password: 'not-the-password' }).expect(401);
      expect((await t.db.query('SELECT password_hash FROM users WHERE id = $1', [u.id]))[0].password_hash).toBe(old);
      const first = await t.http.post('/api/auth/signin').send({ username: u.username, password: u.password }).expect(200);
      const [row] = await t.db.query('SELECT password_hash FROM users WHERE id = $1', [u.id]);
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      await t.http.post('/api/auth/signin').send({ username: u.username, password: u.password }).expect(200);
      // the rehash is not a password change: the token from the bcrypt sign-in still works
      await t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', first.body.accessToken).expect(200);
    });

    it('treats letter-case variants of a username as one user, İ included', async () => {
      const u = await t.user(Role.OPERATOR, 'iii9');
      for (const variant of ['İii9', 'III9', 'iIi9', 'ｉｉｉ９']) {
        const res = await t.http.post('/api/auth/signin').send({ username: variant, password: u.password }).expect(200);
        expect(res.body).toMatchObject({ id: u.id, username: 'iii9' });
      }
      const taken = await t.http.post('/finance/users/create').set('x-access-token', await t.token(Role.ADMIN)).send({ username: 'IIi9', password: 'another-password-9', role: 'COLLECTOR' }).expect(409);
      expect(taken.body).toEqual({ message: 'Username IIi9 is already taken.' });
    });

    it('counts letter-case variants of a username in one rate-limit bucket', async () => {
      const variants = ['case-bucket', 'CASE-BUCKET', 'Case-Bucket', 'ＣＡＳＥ-bucket', 'case-BUCKET'];
      for (let i = 0; i < 10; i++) await t.http.post('/api/auth/signin').send({ username: variants[i % variants.length], password: 'wrong-guess-123' }).expect(401);
      const limited = await t.http.post('/api/auth/signin').send({ username: 'cAsE-bUcKeT', password: 'wrong-guess-123' }).expect(429);
      expect(limited.body).toEqual({ message: 'Too many requests. Try again in a minute.' });
    });

    it.each([
      ['a line feed', 'admin\nx'],
      ['a carriage return', 'admin\r'],
      ['a tab', 'ad\tmin'],
      ['a C1 control', 'admin\u0085'],
      ['a line separator', 'admin\u2028'],
    ])('refuses a username with %s (400 naming username)', async (_name, username) => {
      const res = await t.http.post('/api/auth/signin').send({ username, password: 'whatever-123' }).expect(400);
      expect(res.body).toEqual({ message: 'username must not contain line breaks or control characters' });
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

  describe('POST /api/auth/signout', () => {
    it('ends the token sent and every copy of it, at once; the user’s other sign-ins go on', async () => {
      const collector = await t.user(Role.COLLECTOR);
      const otherBrowser = (await t.http.post('/api/auth/signin').send({ username: collector.username, password: collector.password }).expect(200)).body.accessToken;
      const copy = ` ${collector.token}`; // the same token as another client might send it
      await t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', collector.token).expect(200);
      const res = await t.http.post('/api/auth/signout').set('x-access-token', collector.token).expect(200);
      expect(res.body).toEqual({ message: 'Signed out.' });
      for (const token of [collector.token, copy]) {
        expect((await t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', token).expect(401)).body).toEqual({ message: 'Unauthorized!' });
      }
      await t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', otherBrowser).expect(200);
      // signing out again with the ended token is refused; signing in again gives a working token
      await t.http.post('/api/auth/signout').set('x-access-token', collector.token).expect(401);
      const again = await t.http.post('/api/auth/signin').send({ username: collector.username, password: collector.password }).expect(200);
      await t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', again.body.accessToken).expect(200);
      // kept as a digest until it would have expired, never as the token itself
      const [row] = await t.db.query('SELECT digest, expires_at FROM signed_out_tokens WHERE user_id = $1', [collector.id]);
      expect(row.digest).not.toContain(collector.token.split('.')[2]);
      expect(new Date(row.expires_at).getTime()).toBe((jwt.decode(collector.token) as jwt.JwtPayload).exp! * 1000);
    });

    it('needs a token and no body', async () => {
      const operator = await t.user(Role.OPERATOR);
      expect((await t.http.post('/api/auth/signout').expect(401)).body).toEqual({ message: 'No token provided.' });
      expect((await t.http.post('/api/auth/signout').set('x-access-token', operator.token).send({ all: true }).expect(400)).body).toEqual({ message: 'property all should not exist' });
      await t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', operator.token).expect(200);
    });
  });

  describe('the guard on /finance/ routes', () => {
    it('answers 401 "No token provided." when the header is absent', async () => {
      const res = await t.http.get('/finance/users').expect(401);
      expect(res.body).toEqual({ message: 'No token provided.' });
    });

    it('answers 401 without a token before looking at the body: its type, its JSON or its size', async () => {
      const noToken = { message: 'No token provided.' };
      expect((await t.http.post('/finance/payments/load').set('content-type', 'text/plain').send('x').expect(401)).body).toEqual(noToken);
      expect((await t.http.post('/finance/amlogs/callback').set('content-type', 'application/json').send('{bad').expect(401)).body).toEqual(noToken);
      expect((await t.http.post('/finance/imports').set('content-type', 'application/json').send('{}').expect(401)).body).toEqual(noToken);
      expect((await t.http.get('/finance/customers/status-summary').set('content-type', 'multipart/form-data').expect(401)).body).toEqual(noToken);
      expect((await t.http.post('/finance/payments/load').set('content-type', 'application/json').send(JSON.stringify({ pad: 'x'.repeat(200_000) })).expect(401)).body).toEqual(noToken);
      // the early refusal carries the security headers every answer has
      const refused = await t.http.post('/finance/payments/load').set('content-type', 'text/plain').send('x').expect(401);
      expect(refused.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN' });
      // an unknown path is still a 404, token or not
      expect((await t.http.get('/finance/nothing-here').expect(404)).body).toEqual({ message: 'Cannot GET /finance/nothing-here' });
    });

    it('answers the expired message for an expired token', async () => {
      const token = jwt.sign({ ...claimsFor(1, Role.ADMIN, 'admin'), exp: Math.floor(Date.now() / 1000) - 10 }, TEST_JWT_SECRET, { algorithm: 'HS256', issuer: 'payg-uat' });
      const res = await t.http.get('/finance/users').set('x-access-token', token).expect(401);
      expect(res.body).toEqual({ message: 'Unauthorized! Access Token was expired!' });
    });

    it('remembers a verified token only until it expires, and only its exact text', async () => {
      const exp = Math.floor(Date.now() / 1000) + 2;
      const token = jwt.sign({ ...claimsFor(1, Role.ADMIN, 'admin'), exp }, TEST_JWT_SECRET, { algorithm: 'HS256', issuer: 'payg-uat' });
      await t.http.get('/finance/users').set('x-access-token', token).expect(200);
      await t.http.get('/finance/users').set('x-access-token', token).expect(200);
      // the same header and claims under another signature are another token: verified, and refused
      const [h, p] = token.split('.');
      const forged = `${h}.${p}.${createHmac('sha256', 'another-secret-another-secret-1234').update(`${h}.${p}`).digest('base64url')}`;
      expect((await t.http.get('/finance/users').set('x-access-token', forged).expect(401)).body).toEqual({ message: 'Unauthorized!' });
      await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 50));
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

    it.each([
      ['no ver claim (a token from before token versions)', undefined],
      ['a ver that is not the user’s', 2],
      ['a ver that is not a number', '1'],
    ])('answers 401 "Unauthorized!" for a well-signed token with %s', async (_name, ver) => {
      const token = jwt.sign({ sub: 1, username: 'admin', role: Role.ADMIN, env: 'uat', ...(ver === undefined ? {} : { ver }) }, TEST_JWT_SECRET, { algorithm: 'HS256', issuer: 'payg-uat', expiresIn: 3600 });
      const res = await t.http.get('/finance/users').set('x-access-token', token).expect(401);
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

    it('stops a user’s existing tokens when their password changes, their own change included', async () => {
      const operator = await t.user(Role.OPERATOR);
      const other = await t.user(Role.ADMIN);
      await t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', operator.token).expect(200);
      await t.http.post('/finance/users/password').set('x-access-token', await t.token(Role.ADMIN)).send({ id: operator.id, password: 'a-brand-new-password' }).expect(200);
      expect((await t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', operator.token).expect(401)).body).toEqual({ message: 'Unauthorized!' });
      const again = await t.http.post('/api/auth/signin').send({ username: operator.username, password: 'a-brand-new-password' }).expect(200);
      await t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', again.body.accessToken).expect(200);

      // an admin changing their own password: allowed, and their old token ends too
      await t.http.post('/finance/users/password').set('x-access-token', other.token).send({ id: other.id, password: 'my-own-new-password' }).expect(200);
      await t.http.get('/finance/users').set('x-access-token', other.token).expect(401);
      await t.http.post('/api/auth/signin').send({ username: other.username, password: 'my-own-new-password' }).expect(200);
    });

    it('keeps a disabled user’s tokens ended after they are enabled again', async () => {
      const collector = await t.user(Role.COLLECTOR);
      const admin = await t.token(Role.ADMIN);
      await t.http.post('/finance/users/disable').set('x-access-token', admin).send({ id: collector.id }).expect(200);
      await t.http.post('/finance/users/enable').set('x-access-token', admin).send({ id: collector.id }).expect(200);
      await t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', collector.token).expect(401);
      const again = await t.http.post('/api/auth/signin').send({ username: collector.username, password: collector.password }).expect(200);
      await t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', again.body.accessToken).expect(200);
    });

    it('answers 403 "Forbidden." to a role the route does not allow', async () => {
      for (const role of [Role.OPERATOR, Role.COLLECTOR, Role.PROVIDER]) {
        const res = await t.http.get('/finance/users').set('x-access-token', await t.token(role)).expect(403);
        expect(res.body).toEqual({ message: 'Forbidden.' });
      }
    });
  });
});
