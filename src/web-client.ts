import { MAX_PARAM_LENGTH, tooLongParameterMessage } from './common/http/limits.js';
import { addSecurityHeaders } from './common/http/security-headers.js';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout: the nearest folder above this file with a package.json (src/ in tests, dist/src/ when built). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Where `vite build` writes the client (web/vite.config.ts): outside dist/, which every server build deletes. */
export const WEB_CLIENT_DIR = resolve(projectRoot(), 'web', 'dist');

/** Paths that belong to the API: an unknown one keeps the JSON 404 instead of the client's index.html. */
const API_PREFIXES = ['/finance/', '/api/', '/docs', '/health', '/sms/'];
const isApiPath = (path: string) => API_PREFIXES.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix));

/**
 * The client may run scripts from this origin only (no inline script, no eval). Styles may be inline:
 * the component library writes its CSS variables into a <style> element. Swagger UI at /docs loads its
 * scripts from files of its own on this origin and uses data: images, which img-src allows.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  // a UAT box is often plain HTTP on a LAN address: upgrading its requests to HTTPS would break it
  'upgrade-insecure-requests': null,
};

function filesUnder(root: string): Set<string> {
  const files = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.add('/' + relative(root, path).split(sep).join('/'));
    }
  };
  walk(root);
  return files;
}

const notFound = (request: FastifyRequest, reply: FastifyReply) =>
  reply.code(404).type('application/json; charset=utf-8').send({ message: `Cannot ${request.method} ${request.url.split('?')[0]}` });

/**
 * Security headers on every answer, and the web client at `/`: its files as built, and its
 * index.html for any other GET that is not an API path (the client's own routes, /customers/42).
 * Unknown API paths keep their JSON 404. Without a built client (`npm run web:build`) only the
 * headers are added and `/` answers the JSON 404 as before.
 */
export async function setUpWebClient(app: NestFastifyApplication, root = WEB_CLIENT_DIR): Promise<void> {
  addSecurityHeaders(app.getHttpAdapter().getInstance(), { contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY } });
  if (!existsSync(join(root, 'index.html'))) return;
  const files = filesUnder(root);
  await app.register(fastifyStatic, { root, serve: false });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.get('/*', (request, reply) => {
    let path: string;
    try {
      path = decodeURIComponent(request.url.split('?')[0]);
    } catch {
      return notFound(request, reply);
    }
    if (isApiPath(path)) {
      // the catch-all matched where the API's router would have refused an over-long parameter: answer as it would
      if (path.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH)) return reply.code(400).send({ message: tooLongParameterMessage() });
      return notFound(request, reply);
    }
    if (files.has(path) && path !== '/index.html') {
      // Vite names every asset after its content: a changed file is a new name, so it may be cached for good.
      const immutable = path.startsWith('/assets/');
      return reply.sendFile(path.slice(1), { immutable, maxAge: immutable ? '365d' : 0 });
    }
    // a missing file (a name with an extension) is a 404, not the client
    if (/\.[a-z0-9]+$/i.test(path)) return notFound(request, reply);
    // revalidated on every load, so a new release reaches every browser (send's own `public, max-age=0` would replace it)
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
}
