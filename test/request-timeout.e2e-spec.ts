import net from 'node:net';
import { loadConfig } from '../src/config/app-config.js';
import { ADMIN, startTestApp, TestApp } from './support/test-app.js';

/** What a client that trickles its request (slowloris) gets: a 408 once REQUEST_TIMEOUT_SECONDS are up, and its socket closed. */
describe('Request time-out', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { REQUEST_TIMEOUT_SECONDS: '2' } });
  });
  afterAll(() => t.close());

  /** Sends `head` and then nothing more; resolves with what the server said and when it closed the socket. */
  const trickle = (head: string, giveUpMs: number): Promise<{ answer: string; closedAfterMs: number | null }> =>
    new Promise((resolve, reject) => {
      const started = Date.now();
      let answer = '';
      const socket = net.connect(Number(new URL(t.baseUrl).port), '127.0.0.1', () => socket.write(head));
      const giveUp = setTimeout(() => {
        socket.destroy();
        resolve({ answer, closedAfterMs: null });
      }, giveUpMs);
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => {
        clearTimeout(giveUp);
        resolve({ answer, closedAfterMs: Date.now() - started });
      });
    });

  it('answers 408 to a sign-in whose body never finishes arriving, and closes its socket', async () => {
    const { answer, closedAfterMs } = await trickle('POST /api/auth/signin HTTP/1.1\r\nHost: payg\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"usern', 15_000);
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs).toBeGreaterThanOrEqual(1900);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe(JSON.stringify({ message: 'Request timed out.' }));
  });

  it('answers 408 to a request whose headers never finish arriving', async () => {
    const { answer, closedAfterMs } = await trickle('GET /health HTTP/1.1\r\nHost: payg\r\nX-Slow: a', 15_000);
    expect(closedAfterMs).not.toBeNull();
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('serves requests that arrive in time', async () => {
    await t.http.post('/api/auth/signin').send(ADMIN).expect(200);
  });

  it('waits five minutes by default, as Node itself would', () => {
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(32), DATA_DIR: t.config.dataDir }).requestTimeoutSeconds).toBe(300);
  });
});
