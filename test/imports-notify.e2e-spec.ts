import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * DESIGN part 12: "Imports send no messages unless notify=true." A payments import brings in
 * payments the customers made on another platform, often weeks ago: without notify=true none of
 * them gets a receipt, and a payment that pays a deal off does not send the PAID_OFF message either.
 * With notify=true each gets its receipt, as a payment loaded by hand does.
 */
describe('A payments import tells the customers only when asked (notify=true)', () => {
  let t: TestApp;
  let admin: string;
  let dealid: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token(Role.ADMIN);
    ({ dealid } = await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 }));
  });
  afterAll(async () => {
    try {
      await expectLedgerConsistent(t);
    } finally {
      await t.close();
    }
  });

  const apply = async (rows: string[], fields: Record<string, string>) => {
    let req = t.http.post('/finance/imports').set('x-access-token', admin).field('kind', 'payments').field('mode', 'apply');
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    const res = await req.attach('file', Buffer.from(`externalid,customerid,amount,reference,date\r\n${rows.join('\r\n')}\r\n`), { filename: 'payments.csv', contentType: 'text/csv' });
    expect(res.status).toBe(202);
    for (let i = 0; i < 300; i++) {
      const record = (await t.http.get(`/finance/imports/${res.body.importid}`).set('x-access-token', admin)).body;
      if (record.status === 'DONE' || record.status === 'FAILED') return record;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the import did not finish');
  };
  const messagesOf = async (customerid: number) =>
    ((await t.db.query(`SELECT kind FROM sms_messages WHERE customer_id = $1 AND kind <> 'REGISTERED' ORDER BY id`, [customerid])) as Array<{ kind: string }>).map((m) => m.kind);

  it('sends no receipt and no paid-off message without notify=true', async () => {
    const paying = await registerCustomer(t, dealid);
    const payingOff = await registerCustomer(t, dealid);
    const record = await apply([`Q1,${paying.customerid},45000,OLD-${paying.customerid},2026-01-10`, `Q2,${payingOff.customerid},540000,OLD-${payingOff.customerid},2026-01-10`], { source: 'quiet' });
    expect(record).toMatchObject({ status: 'DONE', applied: 2, notify: false });
    const [deal] = await t.db.query('SELECT status FROM customer_deals WHERE customer_id = $1', [payingOff.customerid]);
    expect(deal.status).toBe('PAID_OFF');
    expect({ paying: await messagesOf(paying.customerid), payingOff: await messagesOf(payingOff.customerid) }).toEqual({ paying: [], payingOff: [] });
  });

  it('sends each imported payment its receipt with notify=true', async () => {
    const paying = await registerCustomer(t, dealid);
    const record = await apply([`N1,${paying.customerid},45000,NEW-${paying.customerid},2026-01-10`], { source: 'told', notify: 'true' });
    expect(record).toMatchObject({ status: 'DONE', applied: 1, notify: true });
    expect(await messagesOf(paying.customerid)).toEqual(['PAYMENT_RECEIVED']);
  });
});
