import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AuditWriter } from '../src/common/audit/audit-writer.js';
import { PUBLIC_KEY, ROLES_KEY } from '../src/common/auth/auth.decorators.js';
import { Role } from '../src/common/auth/role.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** Every route the application serves, with its access metadata, read from the controllers. */
export function routesOf(t: TestApp) {
  const discovery = t.app.get(DiscoveryService);
  const scanner = t.app.get(MetadataScanner);
  const reflector = t.app.get(Reflector);
  return discovery.getControllers().flatMap((wrapper) => {
    const controller = wrapper.metatype as new (...args: never[]) => object;
    if (!controller || !wrapper.instance) return [];
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const proto = Object.getPrototypeOf(wrapper.instance) as Record<string, unknown>;
    return scanner.getAllMethodNames(proto).flatMap((name) => {
      const handler = proto[name] as object;
      const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (paths === undefined) return [];
      // a handler may serve several paths (bonus days: customers/bonus and device/bonus-days)
      return [paths].flat().map((path) => ({
        method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number],
        path: `/${[base, path].filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/'),
        roles: reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, [handler as never, controller]),
        isPublic: reflector.getAllAndOverride<boolean | undefined>(PUBLIC_KEY, [handler as never, controller]) === true,
      }));
    });
  });
}

describe('Operations: health, OpenAPI, access metadata, audit log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('GET /health answers 200 with the database up, without a token', async () => {
    const res = await t.http.get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up', mobilemoney: 'not configured', devicelock: 'not configured', sms: 'not configured' });
  });

  it('serves the OpenAPI document at /docs-json: title, version 2.0.0, the x-access-token scheme and both servers', async () => {
    const res = await t.http.get('/docs-json').expect(200);
    const doc = res.body;
    expect(doc.info).toMatchObject({ title: 'PAYG device financing service', version: '2.0.0' });
    expect(doc.info.description).toBeTruthy();
    expect(doc.components.securitySchemes['x-access-token']).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-access-token' }));
    // the page's own server first, then both environments (test/openapi.e2e-spec.ts checks the order)
    expect(doc.servers.map((s: { url: string }) => s.url)).toEqual(['/', 'https://uat.payg.example.com', 'https://payg.example.com']);
    expect(doc.paths['/api/auth/signin'].post.responses['200']).toBeDefined();
  });

  it('documents every route with a summary, a success answer and its error answers', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    for (const route of routesOf(t)) {
      const openApiPath = route.path.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[openApiPath]?.[route.method.toLowerCase()];
      expect({ route: `${route.method} ${route.path}`, documented: Boolean(op) }).toEqual({ route: `${route.method} ${route.path}`, documented: true });
      expect(op.summary).toBeTruthy();
      const codes = Object.keys(op.responses);
      expect(codes.some((c) => c.startsWith('2'))).toBe(true);
      expect(codes).toContain('400');
      if (!route.isPublic) {
        expect(codes).toEqual(expect.arrayContaining(['401', '403']));
        expect(op.security).toEqual([{ 'x-access-token': [] }]);
      }
    }
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await t.http.get('/docs').redirects(1);
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger');
  });

  it('gives every route either @Roles or @Public, and every /finance/ route @Roles', () => {
    const routes = routesOf(t);
    expect(routes.length).toBeGreaterThan(3);
    const unguarded = routes.filter((r) => !r.isPublic && !r.roles);
    expect(unguarded).toEqual([]);
    const openFinance = routes.filter((r) => r.path.startsWith('/finance/') && r.isPublic);
    expect(openFinance).toEqual([]);
    const open = routes.filter((r) => r.isPublic).map((r) => `${r.method} ${r.path}`).sort();
    // sign-in, health, the web client's settings before sign-in, and the SMS gateway's webhook (its own key)
    expect(open).toEqual(['GET /api/client-config', 'GET /health', 'POST /api/auth/signin', 'POST /sms/delivery-reports']);
  });

  it('writes who changed what to the audit log for a state-changing request', async () => {
    const admin = await t.token(Role.ADMIN);
    const created = await t.http.post('/finance/users/create').set('x-access-token', admin).set('x-request-id', 'audit-test-1').send({ username: 'audited', password: 'password-123', role: 'OPERATOR' }).expect(201);
    await t.app.get(AuditWriter).flush();
    const rows = await t.db.query(`SELECT user_id, method, route, record_id, status, request_id FROM audit_log WHERE request_id = 'audit-test-1'`);
    expect(rows).toEqual([{ user_id: 1, method: 'POST', route: '/finance/users/create', record_id: String(created.body.id), status: 201, request_id: 'audit-test-1' }]);
  });

  it('does not audit reads', async () => {
    const admin = await t.token(Role.ADMIN);
    await t.http.get('/finance/users').set('x-access-token', admin).set('x-request-id', 'audit-read-1').expect(200);
    await t.app.get(AuditWriter).flush();
    expect(await t.db.query(`SELECT 1 FROM audit_log WHERE request_id = 'audit-read-1'`)).toEqual([]);
  });
});
