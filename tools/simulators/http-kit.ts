import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** A handler answers a status and a JSON body, and optionally headers of its own (Retry-After). */
export type Answer = [number, unknown] | [number, unknown, Record<string, string>];
export type Handler = (req: IncomingMessage, body: unknown, url: URL) => Promise<Answer> | Answer;

const MAX_BODY = 1024 * 1024;

/** A tiny JSON server (form bodies are read too): bodies up to 1 MB, bad JSON is a 400, a handler's throw is a 500, never a crash. */
export async function startJsonServer(handler: Handler, port = 0, host = '127.0.0.1'): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', async () => {
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { ...headers, 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      let body: unknown = undefined;
      if (chunks.length && /application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')) {
        body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      } else if (chunks.length) {
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(400, { message: 'invalid JSON' });
        }
      }
      try {
        const [status, payload, headers] = await handler(req, body, new URL(req.url ?? '/', 'http://localhost'));
        send(status, payload, headers);
      } catch (error) {
        send(500, { message: (error as Error).message });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function authorized(req: IncomingMessage, apiKey?: string): boolean {
  return !apiKey || req.headers.authorization === `Bearer ${apiKey}`;
}
