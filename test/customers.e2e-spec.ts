import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer, registrationBody, uniqueImei } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('Customers and accounts', () => {
  let t: TestApp;
  let operator: string;
  let dealid: number;
  beforeAll(async () => {
    t = await startTestApp({ now: new Date('2026-03-10T08:00:00Z') });
    operator = await t.token(Role.OPERATOR);
    dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
  });
  afterAll(() => t.close());

  const register = (body: object, token = operator) => t.http.post('/finance/customers/register').set('x-access-token', token).send(body);
  const counts = async () => {
    const [row] = await t.db.query(`SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM accounts)::int AS accounts,
      (SELECT count(*) FROM customers)::int AS customers, (SELECT count(*) FROM customer_deals)::int AS deals, (SELECT count(*) FROM payments)::int AS payments`);
    return row;
  };

  describe('POST /finance/customers/register', () => {
    it('creates user, account, customer, deal and the deposit payment in one go', async () => {
      const body = registrationBody(dealid, { deposit: 75000.5 });
      const res = await register(body).expect(201);
      expect(res.body).toEqual({ message: 'Customer registered successfully.', customerid: expect.any(Number) });
      const customer = (await t.http.get(`/finance/customers/${res.body.customerid}`).set('x-access-token', operator).expect(200)).body;
      expect(customer).toEqual({
        customerid: res.body.customerid,
        fullname: body.fullname,
        telephone: body.telephone,
        guarantorname: body.guarantorname,
        guarantorcontact: body.guarantorcontact,
        imei: body.imei,
        payg: body.payg,
        serialnumber: null,
        salesstage: 'ENROLLMENT',
        status: 'PENDING',
        accountid: expect.any(Number),
        accountnumber: expect.stringMatching(/^AC\d{9}$/),
        createdat: expect.any(String),
        deal: {
          customerdealid: expect.any(Number),
          dealid,
          dealname: expect.any(String),
          status: 'LOCKED',
          totalamount: 600000,
          monthly: 45000,
          depositpaid: 75000.5,
          amountpaid: 75000.5,
          balance: 524999.5,
          overpaid: 0,
          bonusdays: 0,
          startdate: '2026-03-10',
          nextpaymentdate: '2026-03-10',
        },
      });
      const [user] = await t.db.query('SELECT username, role, password_hash FROM users WHERE id = (SELECT user_id FROM customers WHERE id = $1)', [res.body.customerid]);
      expect(user).toEqual({ username: body.telephone, role: 'CUSTOMER', password_hash: null });
      const payments = await t.db.query('SELECT amount, type, reference FROM payments WHERE customer_id = $1', [res.body.customerid]);
      expect(payments).toEqual([{ amount: '75000.50', type: 'DEPOSIT', reference: `DEPOSIT-${res.body.customerid}` }]);
    });

    it('leaves no row behind when the last insert (the deposit payment) fails', async () => {
      await t.db.query(`ALTER TABLE payments ADD CONSTRAINT test_refuse_deposit CHECK (amount <> 61234.56)`);
      try {
        const before = await counts();
        const res = await register(registrationBody(dealid, { deposit: 61234.56 })).expect(500);
        expect(res.body).toEqual({ message: 'Internal server error.' });
        expect(await counts()).toEqual(before);
      } finally {
        await t.db.query('ALTER TABLE payments DROP CONSTRAINT test_refuse_deposit');
      }
    });

    it('answers 404 for an unknown deal and 409 for a deactivated one, storing nothing', async () => {
      const before = await counts();
      expect((await register(registrationBody(99999)).expect(404)).body).toEqual({ message: 'Deal 99999 not found.' });
      const old = await createDeal(t);
      await t.http.post('/finance/deals/deactivate').set('x-access-token', await t.token(Role.ADMIN)).send({ dealid: old.dealid }).expect(200);
      expect((await register(registrationBody(old.dealid)).expect(409)).body).toEqual({ message: `Deal ${old.dealid} is deactivated.` });
      expect(await counts()).toEqual(before);
    });

    it('answers 400 for a deposit below the deal’s deposit or above its total', async () => {
      const low = await register(registrationBody(dealid, { deposit: 59999.99 })).expect(400);
      expect(low.body.message).toContain('deposit must be between');
      await register(registrationBody(dealid, { deposit: 600000.01 })).expect(400);
      await register(registrationBody(dealid, { deposit: 600000 })).expect(201);
    });

    it('answers 400 naming every bad field', async () => {
      const res = await register({ fullname: '', telephone: 'abc', dealid: '1', deposit: -1, guarantorname: 1, imei: '!', payg: '', extra: true }).expect(400);
      for (const field of ['fullname', 'telephone', 'dealid', 'deposit', 'guarantorname', 'guarantorcontact', 'imei', 'payg', 'extra']) expect(res.body.message).toContain(field);
    });

    it.each([
      ['telephone', (b: Record<string, unknown>) => ({ telephone: b.telephone }), 'Telephone'],
      ['IMEI', (b: Record<string, unknown>) => ({ imei: b.imei }), 'IMEI'],
      ['PAYG code', (b: Record<string, unknown>) => ({ payg: b.payg }), 'PAYG code'],
    ])('answers 409 for a %s already registered, storing nothing', async (_what, reuse, word) => {
      const first = registrationBody(dealid);
      await register(first).expect(201);
      const before = await counts();
      const res = await register(registrationBody(dealid, reuse(first))).expect(409);
      expect(res.body.message).toContain(word);
      expect(await counts()).toEqual(before);
    });

    it('lets exactly one of two concurrent registrations with one IMEI succeed', async () => {
      const imei = uniqueImei();
      const results = await Promise.all([register(registrationBody(dealid, { imei })), register(registrationBody(dealid, { imei }))]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM customers WHERE imei = $1', [imei]);
      expect(n).toBe(1);
    });

    it('refuses a cash sale of a device another customer is still paying for (409), storing and queuing nothing', async () => {
      const first = await registerCustomer(t, dealid);
      const before = await counts();
      const [{ n: commands }] = await t.db.query('SELECT count(*)::int AS n FROM device_commands');
      // the whole price as deposit: a deal paid off at once, which the unique key of deals being paid does not cover
      const res = await register(registrationBody(dealid, { imei: first.imei, deposit: 600000 })).expect(409);
      expect(res.body.message).toBe(`IMEI ${first.imei} is already registered to another customer.`);
      expect(await counts()).toEqual(before);
      expect((await t.db.query('SELECT count(*)::int AS n FROM device_commands'))[0].n).toBe(commands); // no RELEASE for a phone being paid for
      // the first customer's deal closed (paid off), the device may be sold again, for cash too
      await t.http.post('/finance/payments/load').set('x-access-token', operator).send({ customerid: first.customerid, amount: 540000, reference: `CASH-SALE-${first.imei}`, narration: 'cash' }).expect(201);
      await register(registrationBody(dealid, { imei: first.imei, deposit: 600000 })).expect(201);
    });

    it('is for OPERATOR and ADMIN: COLLECTOR and PROVIDER get 403, no token 401', async () => {
      await register(registrationBody(dealid), await t.token(Role.COLLECTOR)).expect(403);
      await register(registrationBody(dealid), await t.token(Role.PROVIDER)).expect(403);
      await t.http.post('/finance/customers/register').send(registrationBody(dealid)).expect(401);
      await register(registrationBody(dealid), await t.token(Role.ADMIN)).expect(201);
    });
  });

  describe('customer operations', () => {
    it('sets the sales stage (400 for an unknown stage, 404 for an unknown customer)', async () => {
      const c = await registerCustomer(t, dealid);
      const res = await t.http.post('/finance/customers/salesstage').set('x-access-token', operator).send({ customerid: c.customerid, salesstage: 'DELIVERY' }).expect(200);
      expect(res.body.salesstage).toBe('DELIVERY');
      const bad = await t.http.post('/finance/customers/salesstage').set('x-access-token', operator).send({ customerid: c.customerid, salesstage: 'WON' }).expect(400);
      expect(bad.body.message).toBe('salesstage must be one of ENROLLMENT, VERIFICATION, DELIVERY, ACTIVE, CLOSED');
      await t.http.post('/finance/customers/salesstage').set('x-access-token', operator).send({ customerid: 777777, salesstage: 'ACTIVE' }).expect(404);
      await t.http.post('/finance/customers/salesstage').set('x-access-token', await t.token(Role.COLLECTOR)).send({ customerid: c.customerid, salesstage: 'ACTIVE' }).expect(403);
    });

    it('approves a PENDING customer once; 409 afterwards; 404 unknown', async () => {
      const c = await registerCustomer(t, dealid);
      const res = await t.http.post('/finance/customers/approve').set('x-access-token', operator).send({ customerid: c.customerid }).expect(200);
      expect(res.body.status).toBe('APPROVED');
      const again = await t.http.post('/finance/customers/approve').set('x-access-token', operator).send({ customerid: c.customerid }).expect(409);
      expect(again.body).toEqual({ message: `Customer ${c.customerid} is APPROVED; only a PENDING customer can be approved.` });
      await t.http.post('/finance/customers/approve').set('x-access-token', operator).send({ customerid: 777777 }).expect(404);
      await t.http.post('/finance/customers/approve').set('x-access-token', await t.token(Role.COLLECTOR)).send({ customerid: c.customerid }).expect(403);
    });

    it('finds a customer by account number (any case), 404 when none', async () => {
      const c = await registerCustomer(t, dealid);
      const view = (await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator).expect(200)).body;
      const found = await t.http.post('/finance/customers/find').set('x-access-token', await t.token(Role.COLLECTOR)).send({ accountnumber: view.accountnumber.toLowerCase() }).expect(200);
      expect(found.body).toEqual(view);
      const missing = await t.http.post('/finance/customers/find').set('x-access-token', operator).send({ accountnumber: 'AC999999999' }).expect(404);
      expect(missing.body).toEqual({ message: 'Account AC999999999 not found.' });
      await t.http.post('/finance/customers/find').set('x-access-token', operator).send({}).expect(400);
    });

    it('answers GET /finance/customers/{id} 404 for an unknown id and 400 for a non-number', async () => {
      expect((await t.http.get('/finance/customers/424242').set('x-access-token', operator).expect(404)).body).toEqual({ message: 'Customer 424242 not found.' });
      await t.http.get('/finance/customers/abc').set('x-access-token', operator).expect(400);
      await t.http.get('/finance/customers/0').set('x-access-token', operator).expect(400);
      await t.http.get('/finance/customers/1').set('x-access-token', await t.token(Role.PROVIDER)).expect(403);
    });

    it('lists customers, paged, filtered by status, sales stage and search', async () => {
      const a = await registerCustomer(t, dealid, { fullname: 'Zebediah Searchable' });
      const b = await registerCustomer(t, dealid);
      await t.http.post('/finance/customers/approve').set('x-access-token', operator).send({ customerid: b.customerid }).expect(200);
      const get = (q: string) => t.http.get(`/finance/customers?${q}`).set('x-access-token', operator).expect(200).then((r) => r.body);
      const ids = (page: { items: Array<{ customerid: number }> }) => page.items.map((c) => c.customerid);
      expect(ids(await get('search=zebediah'))).toEqual([a.customerid]);
      // the name waits in the index's small pending list (at most 64 kB, 8 pages) and a search finds it there (migration NameIndexSmallPendingList)
      expect(await t.db.query(`SELECT reloptions FROM pg_class WHERE relname = 'customers_fullname_trgm_idx'`)).toEqual([{ reloptions: ['fastupdate=on', 'gin_pending_list_limit=64'] }]);
      const [{ pages }] = (await t.db.query(`SELECT gin_clean_pending_list('customers_fullname_trgm_idx'::regclass)::int AS pages`)) as Array<{ pages: number }>;
      expect(pages).toBeGreaterThanOrEqual(1);
      expect(pages).toBeLessThanOrEqual(8);
      expect(ids(await get('search=zebediah'))).toEqual([a.customerid]);
      // no query reads a prefix of lower(fullname): that index is gone (migration DropPrefixNameIndex)
      expect(await t.db.query(`SELECT indexname FROM pg_indexes WHERE indexname = 'customers_fullname_idx'`)).toEqual([]);
      expect(ids(await get(`search=${a.payg}`))).toEqual([a.customerid]);
      expect(ids(await get(`search=${a.imei}`))).toEqual([a.customerid]);
      expect(ids(await get(`search=${a.telephone.slice(3)}`))).toEqual([a.customerid]);
      const view = (await t.http.get(`/finance/customers/${a.customerid}`).set('x-access-token', operator)).body;
      expect(ids(await get(`search=${view.accountnumber}`))).toEqual([a.customerid]);
      const approved = await get('status=APPROVED&limit=100');
      expect(ids(approved)).toContain(b.customerid);
      expect(approved.items.every((c: { status: string }) => c.status === 'APPROVED')).toBe(true);
      expect(ids(await get('salesstage=CLOSED'))).toEqual([]);
      const page = await get('page=1&limit=2');
      expect(page.items).toHaveLength(2);
      expect(page.total).toBeGreaterThanOrEqual(3);
      const beyond = await get('page=1000&limit=2');
      expect(beyond).toMatchObject({ items: [], total: page.total });
      await t.http.get('/finance/customers?status=LOST').set('x-access-token', operator).expect(400);
      expect(ids(await get('search=%25'))).toEqual([]);
    });

    it('finds a name however its accents were typed: names and searches are read in NFC', async () => {
      const decomposed = 'Jose\u0301 N\u0303andu\u0301';
      const c = await registerCustomer(t, dealid, { fullname: decomposed, guarantorname: 'Zoe\u0308 Okello' });
      const view = (await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator).expect(200)).body;
      expect(view).toMatchObject({ fullname: 'José Ñandú', guarantorname: 'Zoë Okello' });
      for (const term of ['José Ñandú', decomposed, 'ñandú']) {
        const found = (await t.http.get(`/finance/customers?search=${encodeURIComponent(term)}`).set('x-access-token', operator).expect(200)).body;
        expect(found.items.map((x: { customerid: number }) => x.customerid)).toEqual([c.customerid]);
      }
    });

    it('finds a telephone by its last digits, pages a search newest first with the total of all matches', async () => {
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await registerCustomer(t, dealid, { fullname: `Pagination Kabuye ${i}` }));
      const get = (q: string) => t.http.get(`/finance/customers?${q}`).set('x-access-token', operator).expect(200).then((r) => r.body);
      const ids = (page: { items: Array<{ customerid: number }> }) => page.items.map((c) => c.customerid);
      expect(ids(await get(`search=${made[1].telephone.slice(-6)}`))).toEqual([made[1].customerid]);
      expect(ids(await get(`search=${encodeURIComponent(made[1].telephone.slice(-6).replace(/(\d{3})$/, ' $1'))}`))).toEqual([made[1].customerid]);
      const [first, second] = [await get('search=pagination%20kabuye&limit=2'), await get('search=pagination%20kabuye&limit=2&page=2')];
      expect(first).toMatchObject({ total: 3, page: 1, limit: 2 });
      expect(ids(first)).toEqual([made[2].customerid, made[1].customerid]);
      expect(second).toMatchObject({ total: 3, items: [expect.objectContaining({ customerid: made[0].customerid })] });
      expect(await get('search=pagination%20kabuye&limit=2&page=3')).toMatchObject({ total: 3, items: [] });
    });

    it('summarises statuses with all three keys as integers', async () => {
      const res = await t.http.get('/finance/customers/status-summary').set('x-access-token', await t.token(Role.COLLECTOR)).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['APPROVED', 'PENDING', 'REPOSSESSED']);
      expect(res.body.REPOSSESSED).toBe(0);
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM customers WHERE status = 'PENDING'`);
      expect(res.body.PENDING).toBe(n);
      for (const v of Object.values(res.body)) expect(Number.isInteger(v)).toBe(true);
    });
  });

  describe('POST /finance/accounts/info', () => {
    it('answers the account record; 404 when none; 400 for a bad id', async () => {
      const c = await registerCustomer(t, dealid);
      const view = (await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator)).body;
      const res = await t.http.post('/finance/accounts/info').set('x-access-token', operator).send({ accountid: view.accountid }).expect(200);
      expect(res.body).toEqual({ accountid: view.accountid, accountnumber: view.accountnumber, customerid: c.customerid, fullname: c.fullname, status: 'PENDING', deal: view.deal });
      expect((await t.http.post('/finance/accounts/info').set('x-access-token', operator).send({ accountid: 99999 }).expect(404)).body).toEqual({ message: 'Account 99999 not found.' });
      await t.http.post('/finance/accounts/info').set('x-access-token', operator).send({ accountid: 'x' }).expect(400);
      await t.http.post('/finance/accounts/info').set('x-access-token', await t.token(Role.PROVIDER)).send({ accountid: view.accountid }).expect(403);
      await t.http.post('/finance/accounts/info').send({ accountid: view.accountid }).expect(401);
    });
  });
});
