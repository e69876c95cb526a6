import { startJsonServer } from './http-kit.js';
import { startLockSimulator } from './lock-simulator.js';
import { startProviderSimulator } from './provider-simulator.js';
import { startSmsSimulator } from './sms-simulator.js';

describe('mobile-money provider simulator', () => {
  it('serves transactions by date range and by id, behind its key, and can be down', async () => {
    const sim = await startProviderSimulator({ apiKey: 'k' });
    try {
      sim.addTransaction({ id: 'A', amount: 100, tag: 'T1', status: 'SUCCESS', timestamp: '2026-03-01T10:00:00Z' });
      sim.addTransaction({ id: 'B', amount: 200, tag: 'T2', status: 'FAILED', timestamp: '2026-03-05T10:00:00Z' });
      const get = (path: string, key = 'k') => fetch(`${sim.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      expect((await get('/transactions?startdate=2026-03-01&enddate=2026-03-02', 'wrong')).status).toBe(401);
      const range = (await (await get('/transactions?startdate=2026-03-01&enddate=2026-03-02')).json()) as { transactions: Array<{ id: string }> };
      expect(range.transactions.map((t) => t.id)).toEqual(['A']);
      expect((await get('/transactions?startdate=nope&enddate=2026-03-02')).status).toBe(400);
      expect(await (await get('/transactions/B')).json()).toMatchObject({ id: 'B', status: 'FAILED' });
      expect((await get('/transactions/C')).status).toBe(404);
      sim.setDown(true);
      expect((await get('/transactions/B')).status).toBe(503);
      await fetch(`${sim.url}/_control/down`, { method: 'POST', body: JSON.stringify({ down: false }) });
      expect((await get('/transactions/B')).status).toBe(200);
      await fetch(`${sim.url}/_control/transactions`, { method: 'POST', body: JSON.stringify({ id: 'D', amount: 5, tag: 'T', status: 'SUCCESS' }) });
      expect((await get('/transactions/D')).status).toBe(200);
    } finally {
      await sim.close();
    }
  });
});

describe('device-lock platform simulator', () => {
  it('keeps each device’s last state, drops repeated command ids, fails on demand', async () => {
    const sim = await startLockSimulator({ apiKey: 'k' });
    try {
      const post = (body: object, key = 'k') =>
        fetch(`${sim.url}/commands`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const cmd = { commandid: 'c1', imei: '111', serialnumber: 'S', payg: 'P', action: 'UNLOCK', nextpaymentdate: '2026-04-01', unlockuntil: null };
      expect((await post(cmd, 'bad')).status).toBe(401);
      expect(await (await post(cmd)).json()).toEqual({ status: 'ACCEPTED', commandid: 'c1' });
      expect(await (await post(cmd)).json()).toEqual({ status: 'DUPLICATE', commandid: 'c1' });
      expect(sim.received('c1')).toBe(2);
      expect(sim.commands).toHaveLength(1);
      expect(sim.devices.get('111')).toMatchObject({ action: 'UNLOCK', nextpaymentdate: '2026-04-01' });
      expect((await post({ commandid: 'c2', imei: '111', action: 'DANCE' })).status).toBe(400);
      sim.failNext(2);
      expect((await post({ ...cmd, commandid: 'c3', action: 'LOCK' })).status).toBe(503);
      expect((await post({ ...cmd, commandid: 'c3', action: 'LOCK' })).status).toBe(503);
      expect((await post({ ...cmd, commandid: 'c3', action: 'LOCK' })).status).toBe(200);
      expect(((await (await fetch(`${sim.url}/_control/devices/111`)).json()) as { action: string }).action).toBe('LOCK');
      sim.setDown(true);
      expect((await post({ ...cmd, commandid: 'c4' })).status).toBe(503);
    } finally {
      await sim.close();
    }
  });
});

describe('SMS gateway simulator', () => {
  it('speaks Africa’s Talking: form sends, Recipients with status codes, delivery reports back, failures on demand', async () => {
    const reports: Array<Record<string, string>> = [];
    const receiver = await startJsonServer((_req, body) => [200, (reports.push(body as Record<string, string>), { ok: true })]);
    const sim = await startSmsSimulator({ apiKey: 'k', username: 'sandbox', callbackUrl: `${receiver.url}/sms/delivery-reports?key=x` });
    try {
      sim.setReportDelay(5, 2, 50);
      const send = (fields: Record<string, string>, key = 'k') =>
        fetch(`${sim.url}/version1/messaging`, { method: 'POST', headers: { apiKey: key, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
      expect((await send({ username: 'sandbox', to: '+256772555001', message: 'hi' }, 'bad')).status).toBe(401);
      const ok = await send({ username: 'sandbox', to: '+256772555001', message: 'Hello', from: 'PAYG' });
      expect(ok.status).toBe(201);
      const answer = (await ok.json()) as { SMSMessageData: { Recipients: Array<{ statusCode: number; messageId: string; cost: string }> } };
      expect(answer.SMSMessageData.Recipients[0]).toMatchObject({ statusCode: 101, status: 'Success', number: '+256772555001', cost: 'UGX 30.0000' });
      sim.reject('+256772555002');
      const refused = (await (await send({ username: 'sandbox', to: '+256772555002', message: 'x' })).json()) as typeof answer;
      expect(refused.SMSMessageData.Recipients[0]).toMatchObject({ statusCode: 403, status: 'InvalidPhoneNumber' });
      sim.undeliverable('+256772555003');
      await send({ username: 'sandbox', to: '+256772555003', message: 'x' });
      await sim.reportsSettled();
      expect(reports).toEqual([
        { id: answer.SMSMessageData.Recipients[0].messageId, status: 'Success', phoneNumber: '+256772555001', networkCode: '64101', retryCount: '0' },
        { id: sim.sentTo('+256772555003')[0].messageId, status: 'Failed', failureReason: 'UserIsInactive', phoneNumber: '+256772555003', networkCode: '64101', retryCount: '0' },
      ]);
      sim.failNext(1, 502);
      expect((await send({ username: 'sandbox', to: '+256772555001', message: 'x' })).status).toBe(502);
      await fetch(`${sim.url}/_control/down`, { method: 'POST', body: JSON.stringify({ down: true }) });
      expect((await send({ username: 'sandbox', to: '+256772555001', message: 'x' })).status).toBe(503);
      expect(sim.messages).toHaveLength(2);
    } finally {
      await sim.close();
      await receiver.close();
    }
  });

  it('answers slowly on demand, sends side by side, taking each when it answers', async () => {
    const sim = await startSmsSimulator({ apiKey: 'k', username: 'sandbox' });
    try {
      const send = (message: string) =>
        fetch(`${sim.url}/version1/messaging`, { method: 'POST', headers: { apiKey: 'k', 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ username: 'sandbox', to: '+256772555001', message }).toString() });
      expect(await (await fetch(`${sim.url}/_control/delay`, { method: 'POST', body: JSON.stringify({ ms: 300 }) })).json()).toEqual({ delayMs: 300 });
      const started = Date.now();
      const answers = [send('one'), send('two')];
      await new Promise((r) => setTimeout(r, 100));
      expect(sim.messages).toHaveLength(0); // not taken before it answers
      expect((await Promise.all(answers)).map((a) => a.status)).toEqual([201, 201]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(Date.now() - started).toBeLessThan(590); // one after the other would take 600
      expect(sim.messages.map((m) => m.message).sort()).toEqual(['one', 'two']);
      sim.reset();
      const quick = Date.now();
      await send('three');
      expect(Date.now() - quick).toBeLessThan(250);
    } finally {
      await sim.close();
    }
  });
});
