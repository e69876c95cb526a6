import { createServer, Server, Socket } from 'node:net';
import { Role } from '../src/common/auth/role.js';
import { AppConfig } from '../src/config/app-config.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * An export streams on a connection of its own, outside the pool. The pool gives up on a database
 * that does not answer after 3 s (a request is answered 503 within 5 s, never left hanging); the
 * export's connection had no such limit, so with the database host unreachable (a frozen server, a
 * network partition: the connection is accepted or never refused, and nothing comes back) a download
 * hung for as long as the operating system kept trying. It now gives up as the pool does: 503 {message}.
 */
describe('An export while the database does not answer', () => {
  let t: TestApp;
  let silent: Server;
  const sockets: Socket[] = [];
  let realUrl: string | undefined;

  beforeAll(async () => {
    t = await startTestApp();
    // a server that takes the connection and never says a word, as a frozen database does
    silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    if (realUrl) t.app.get(AppConfig).database.url = realUrl;
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
    await t.close();
  });

  it('answers 503 {message} within 5 s instead of hanging', async () => {
    const admin = await t.token(Role.ADMIN);
    const config = t.app.get(AppConfig);
    realUrl = config.database.url;
    const { port } = silent.address() as { port: number };
    // the pool keeps its connections; only a new connection (the export's) meets the silent server
    config.database.url = `postgres://postgres:x@127.0.0.1:${port}/payg_test`;
    const started = Date.now();
    const res = await t.http.get('/finance/exports/customers.csv').set('x-access-token', admin).timeout(15_000).catch((error: Error) => ({ status: 0, body: { message: error.message } }));
    const ms = Date.now() - started;
    expect({ status: res.status, message: res.body.message }).toEqual({ status: 503, message: expect.stringMatching(/database/) });
    expect(ms).toBeLessThan(5000);
  }, 30_000);
});
