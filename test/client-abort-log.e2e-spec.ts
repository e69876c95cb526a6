import net from 'node:net';
import { ADMIN, createTestDatabase, dropTestDatabase } from './support/test-app.js';
import { Instance, signIn, startInstance } from './support/instances.js';

/**
 * A client that hangs up in the middle of sending its body (a phone losing its signal, or anyone on
 * the open sign-in route) is not a fault of the service: it must not show up in the error log, least
 * of all as "the database is not answering", which is what an operator's alert on a database outage reads.
 */
describe('A client that hangs up mid-request', () => {
  let databaseUrl: string;
  let instance: Instance;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    instance = await startInstance(databaseUrl, { LOG_LEVEL: 'info' }, { outputLimit: 1_000_000 });
  }, 120_000);
  afterAll(async () => {
    await instance?.stop();
    await dropTestDatabase(databaseUrl);
  });

  const hangUpMidBody = (path: string, headers = 'Content-Type: application/json', body = '{"username":"adm'): Promise<void> =>
    new Promise((resolve, reject) => {
      const { port } = new URL(instance.url);
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(`POST ${path} HTTP/1.1\r\nHost: payg\r\n${headers}\r\nContent-Length: 2000\r\n\r\n${body}`);
        setTimeout(() => socket.destroy(), 200);
      });
      socket.on('error', reject).on('close', () => resolve());
    });

  it('is not logged as an error, nor as a database outage', async () => {
    const before = instance.output().length;
    const token = await signIn(instance.url, ADMIN.username, ADMIN.password);
    for (let i = 0; i < 3; i++) await hangUpMidBody('/api/auth/signin');
    await hangUpMidBody('/finance/payments/load', `Content-Type: application/json\r\nx-access-token: ${token}`, '{"customerid":1,"amo');
    await hangUpMidBody(
      '/finance/imports',
      `Content-Type: multipart/form-data; boundary=XYZ\r\nx-access-token: ${token}`,
      '--XYZ\r\nContent-Disposition: form-data; name="kind"\r\n\r\npayments\r\n--XYZ\r\nContent-Disposition: form-data; name="file"; filename="p.csv"\r\nContent-Type: text/csv\r\n\r\nexternalid,payg,amo',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const lines = instance.output().slice(before).split('\n').filter(Boolean);
    expect(lines.filter((line) => /database is not answering|"level":50/.test(line))).toEqual([]);
    // and the service is none the worse
    expect((await fetch(`${instance.url}/health`)).status).toBe(200);
  });
});
