import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The headers helmet's middleware sets for `options`, worked out once. Without functions in the
 * CSP directives (nonces) helmet sets the same fixed headers on every answer, so there is nothing
 * to compute per request.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * The API's answers carry tokens and customers' personal data (names, telephones, balances, whole
 * books as CSV): no browser, proxy or shared cache may keep them. The web client's files set their
 * own caching over this one.
 */
export const API_CACHE_CONTROL = 'no-store';

/**
 * helmet's headers on every answer (the API's, the client's files, the 404s), and `Cache-Control:
 * no-store` unless the answer sets its own, set by one hook from the map built at start. @fastify/helmet would rebuild helmet's middleware in two hooks of every
 * request: about a tenth of the callback's CPU in Node (docs/performance.md).
 */
export function addSecurityHeaders(fastify: FastifyInstance, options: HelmetOptions): void {
  const headers = { ...helmetHeaders(options), 'cache-control': API_CACHE_CONTROL };
  fastify.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
