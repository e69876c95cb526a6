import { Role } from '../src/common/auth/role.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('Inventory', () => {
  let t: TestApp;
  let operator: string;
  beforeAll(async () => {
    t = await startTestApp();
    operator = await t.token(Role.OPERATOR);
  });
  afterAll(() => t.close());

  const item = (over: Record<string, unknown> = {}) => ({ itemname: 'Tecno Spark 20 (64 GB)', quantity: 50, unitcost: 410000.5, supplier: 'Transsion Uganda Ltd', ...over });
  const post = (path: string, body: unknown, token = operator) => t.http.post(`/finance/inventory/${path}`).set('x-access-token', token).send(body as object);
  const add = async (over: Record<string, unknown> = {}) => (await post('add', item(over)).expect(201)).body;

  it('adds an item: 201 with itemid and the record, opening stock recorded as the first movement', async () => {
    const res = await post('add', item()).expect(201);
    expect(res.body).toEqual({
      message: 'Inventory item added.',
      itemid: expect.any(Number),
      itemname: 'Tecno Spark 20 (64 GB)',
      quantity: 50,
      unitcost: 410000.5,
      supplier: 'Transsion Uganda Ltd',
      createdat: expect.any(String),
    });
    const details = await post('details', { itemid: res.body.itemid }).expect(200);
    expect(details.body).toMatchObject({ itemid: res.body.itemid, quantity: 50, unitcost: 410000.5 });
    expect(details.body.history).toEqual([
      { movementid: expect.any(Number), kind: 'ADD', delta: 50, quantityafter: 50, reason: 'opening stock', createdby: expect.any(Number), createdat: expect.any(String) },
    ]);
  });

  it('accepts zero stock and a zero unit cost', async () => {
    expect(await add({ quantity: 0, unitcost: 0 })).toMatchObject({ quantity: 0, unitcost: 0 });
    expect(await add({ quantity: 1_000_000 })).toMatchObject({ quantity: 1_000_000 });
  });

  it.each([
    [{ quantity: -1 }, 'quantity must not be less than 0'],
    [{ quantity: 1_000_001 }, 'quantity must not be greater than 1000000'],
    [{ quantity: 2.5 }, 'quantity must be an integer number'],
    [{ unitcost: -0.01 }, 'unitcost must not be negative'],
    [{ unitcost: 10.123 }, 'unitcost must be a number with at most 2 decimal places'],
    [{ unitcost: '100' }, 'unitcost must be a number with at most 2 decimal places'],
    [{ itemname: '' }, 'itemname should not be empty'],
    [{ supplier: 'x'.repeat(256) }, 'supplier must be shorter than or equal to 255 characters'],
    [{ colour: 'red' }, 'property colour should not exist'],
  ])('refuses %p with 400 and stores nothing', async (over, message) => {
    const [{ n: before }] = await t.db.query('SELECT count(*)::int AS n FROM inventory_items');
    const res = await post('add', item(over)).expect(400);
    expect(res.body.message).toContain(message);
    const [{ n: after }] = await t.db.query('SELECT count(*)::int AS n FROM inventory_items');
    expect(after).toBe(before);
  });

  it('names every missing field at once', async () => {
    const res = await post('add', {}).expect(400);
    for (const field of ['itemname', 'quantity', 'unitcost', 'supplier']) expect(res.body.message).toContain(field);
  });

  it('answers 404 for an unknown item', async () => {
    expect((await post('details', { itemid: 987654 }).expect(404)).body).toEqual({ message: 'Inventory item 987654 not found.' });
    expect((await post('adjust', { itemid: 987654, delta: 1, reason: 'count' }).expect(404)).body).toEqual({ message: 'Inventory item 987654 not found.' });
    await post('details', { itemid: 'one' }).expect(400);
  });

  it('adjusts stock with a reason, records every change, and never goes below zero (409, nothing changed)', async () => {
    const { itemid } = await add({ quantity: 5 });
    const out = await post('adjust', { itemid, delta: -3, reason: 'Delivered to the Mbale agent' }).expect(200);
    expect(out.body).toMatchObject({ itemid, quantity: 2, movement: { kind: 'ADJUST', delta: -3, quantityafter: 2, reason: 'Delivered to the Mbale agent' } });
    const refused = await post('adjust', { itemid, delta: -3, reason: 'Too many' }).expect(409);
    expect(refused.body).toEqual({ message: `Item ${itemid} has 2 in stock; removing 3 would leave less than zero.` });
    await post('adjust', { itemid, delta: 10, reason: 'Restock' }).expect(200);
    const details = (await post('details', { itemid }).expect(200)).body;
    expect(details.quantity).toBe(12);
    expect(details.history.map((m: { delta: number; quantityafter: number }) => [m.delta, m.quantityafter])).toEqual([
      [10, 12],
      [-3, 2],
      [5, 5],
    ]);
    await post('adjust', { itemid, delta: 0, reason: 'nothing' }).expect(400);
    await post('adjust', { itemid, delta: 1 }).expect(400);
    await post('adjust', { itemid, delta: 1_000_000, reason: 'too much' }).expect(409);
  });

  it('keeps concurrent removals exact: 20 removals of 1 from a stock of 10 leave 0, ten of them refused', async () => {
    const { itemid } = await add({ quantity: 10 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('adjust', { itemid, delta: -1, reason: 'sold' })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(10);
    expect((await post('details', { itemid }).expect(200)).body.quantity).toBe(0);
    const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM inventory_movements WHERE item_id = $1', [itemid]);
    expect(n).toBe(11);
  });

  it('lists items paged, searching the name or the supplier literally', async () => {
    const tag = `Z${Date.now().toString(36)}`;
    await add({ itemname: `${tag} Solar Home System 80W`, supplier: 'Sun King' });
    await add({ itemname: 'Itel A70', supplier: `${tag} Distributors` });
    await add({ itemname: '100% cotton case', supplier: 'Local' });
    const found = await t.http.get(`/finance/inventory?search=${tag}`).set('x-access-token', operator).expect(200);
    expect(found.body).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(found.body.items.map((i: { itemname: string }) => i.itemname)).toEqual([`${tag} Solar Home System 80W`, 'Itel A70']);
    const literal = await t.http.get('/finance/inventory?search=100%25').set('x-access-token', operator).expect(200);
    expect(literal.body.items.every((i: { itemname: string; supplier: string }) => `${i.itemname}${i.supplier}`.includes('100%'))).toBe(true);
    const page = await t.http.get('/finance/inventory?page=2&limit=1').set('x-access-token', operator).expect(200);
    expect(page.body.items).toHaveLength(1);
    await t.http.get('/finance/inventory?limit=101').set('x-access-token', operator).expect(400);
  });

  it('is for OPERATOR and ADMIN: 401 without a token, 403 for COLLECTOR and PROVIDER', async () => {
    expect((await t.http.post('/finance/inventory/add').send(item()).expect(401)).body).toEqual({ message: 'No token provided.' });
    for (const role of [Role.COLLECTOR, Role.PROVIDER]) {
      const token = await t.token(role);
      expect((await post('add', item(), token).expect(403)).body).toEqual({ message: 'Forbidden.' });
      await t.http.get('/finance/inventory').set('x-access-token', token).expect(403);
    }
    await post('add', item(), await t.token(Role.ADMIN)).expect(201);
  });

  it('writes who changed stock to the audit log', async () => {
    const { itemid } = await add();
    await post('adjust', { itemid, delta: 1, reason: 'found one' }).expect(200);
    await new Promise((r) => setTimeout(r, 400));
    const rows = await t.db.query(`SELECT route FROM audit_log WHERE route LIKE '%inventory/adjust%'`);
    expect(rows.length).toBeGreaterThan(0);
  });
});
