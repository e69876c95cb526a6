import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Role } from '../src/common/auth/role.js';
import { ProviderSimulator, startProviderSimulator } from '../tools/simulators/provider-simulator.js';
import { createDeal, dealBody, registerCustomer, registrationBody } from './support/fixtures.js';
import {
  documentedOperations,
  DocumentedOperation,
  fillPath,
  isMessageBody,
  rowCounts,
} from './support/routes.js';
import { startTestApp, TestApp, TEST_JWT_SECRET } from './support/test-app.js';
import { runLedgerVerify } from './support/faults.js';
import { expectLedgerConsistent } from './support/ledger.js';

const { ADMIN, OPERATOR, COLLECTOR, PROVIDER } = Role;
const STAFF = [ADMIN, OPERATOR, COLLECTOR, PROVIDER];

/**
 * Who may call what, written by hand from DESIGN part 3 and the README's role table. It is NOT read
 * from the OpenAPI document: the test compares the two, so a route added without a row here fails.
 */
const ROLE_TABLE: Record<string, Role[] | 'public'> = {
  'GET /health': 'public',
  'POST /api/auth/signin': 'public',
  'POST /api/auth/signout': [ADMIN, OPERATOR, COLLECTOR, PROVIDER],
  'GET /api/client-config': 'public',

  'POST /finance/users/create': [ADMIN],
  'GET /finance/users': [ADMIN],
  'POST /finance/users/disable': [ADMIN],
  'POST /finance/users/password': [ADMIN],
  'POST /finance/users/enable': [ADMIN],

  'POST /finance/deals/create': [ADMIN],
  'POST /finance/deals/deactivate': [ADMIN],
  'GET /finance/deals': [ADMIN, OPERATOR],

  'POST /finance/customers/register': [ADMIN, OPERATOR],
  'POST /finance/customers/salesstage': [ADMIN, OPERATOR],
  'POST /finance/customers/approve': [ADMIN, OPERATOR],
  'POST /finance/customers/bonus': [ADMIN, OPERATOR],
  'POST /finance/customers/find': [ADMIN, OPERATOR, COLLECTOR],
  'GET /finance/customers/status-summary': [ADMIN, OPERATOR, COLLECTOR],
  'GET /finance/customers': [ADMIN, OPERATOR, COLLECTOR],
  'GET /finance/customers/{customerid}': [ADMIN, OPERATOR, COLLECTOR],

  'POST /finance/accounts/info': [ADMIN, OPERATOR],

  'POST /finance/payments/load': [ADMIN, OPERATOR],
  'POST /finance/payments/recent': [ADMIN, OPERATOR, COLLECTOR],
  'POST /finance/payments/recon': [ADMIN, OPERATOR],

  'POST /finance/amlogs/callback': [ADMIN, PROVIDER],
  'POST /finance/amlogs/lookup': [ADMIN, OPERATOR],
  'GET /finance/amlogs/unmatched': [ADMIN, OPERATOR],
  'POST /finance/amlogs/assign': [ADMIN, OPERATOR],

  'POST /finance/device/lock-update': [ADMIN, OPERATOR],
  'POST /finance/device/unlock-temp': [ADMIN, OPERATOR],
  'POST /finance/device/bonus-days': [ADMIN, OPERATOR],
  'POST /finance/device/sync-status': [ADMIN, OPERATOR],
  'GET /finance/device/commands': [ADMIN, OPERATOR],

  'POST /finance/contracts/repossess': [ADMIN, OPERATOR],

  'POST /finance/inventory/add': [ADMIN, OPERATOR],
  'POST /finance/inventory/details': [ADMIN, OPERATOR],
  'POST /finance/inventory/adjust': [ADMIN, OPERATOR],
  'GET /finance/inventory': [ADMIN, OPERATOR],

  'POST /finance/collections/generate': [ADMIN, COLLECTOR],
  'GET /finance/collections/calls': [ADMIN, OPERATOR, COLLECTOR],
  'POST /finance/collections/assign': [ADMIN, OPERATOR, COLLECTOR],
  'POST /finance/collections/update': [ADMIN, OPERATOR, COLLECTOR],
  'GET /finance/collections/stats': [ADMIN, COLLECTOR],

  'GET /finance/reports/portfolio': [ADMIN],
  'GET /finance/reports/payments-per-day': [ADMIN],
  'GET /finance/audit': [ADMIN],

  'POST /finance/feedback/create': [ADMIN, OPERATOR, COLLECTOR],
  'GET /finance/feedback': [ADMIN, OPERATOR, COLLECTOR],

  'GET /finance/messages': [ADMIN, OPERATOR, COLLECTOR],
  'POST /finance/messages/send': [ADMIN, OPERATOR],
  'GET /finance/customers/preferences': [ADMIN, OPERATOR, COLLECTOR],
  'POST /finance/customers/preferences': [ADMIN, OPERATOR],
  'POST /sms/delivery-reports': 'public',
  'POST /finance/imports': [ADMIN],
  'GET /finance/imports': [ADMIN],
  'GET /finance/imports/{importid}': [ADMIN],
  'GET /finance/exports/customers.csv': [ADMIN],
  'GET /finance/exports/payments.csv': [ADMIN],
  'GET /finance/exports/collections.csv': [ADMIN],
  'GET /finance/exports/portfolio.csv': [ADMIN],
};

interface Fixtures {
  dealid: number;
  spareDealid: number;
  customerid: number;
  payg: string;
  accountid: number;
  accountnumber: string;
  repossessCustomerid: number;
  disableUserId: number;
  /** the user behind the shared COLLECTOR token */
  collectorId: number;
  passwordUserId: number;
  signIn: { username: string; password: string };
  /** A token per role for signing out (which ends it), so that the role's shared token lives on */
  signOutTokens: Record<Role, string>;
  unmatched: Partial<Record<Role, string>>;
  importid: number;
}

interface Req {
  path?: string;
  query?: Record<string, string | number>;
  body?: unknown;
  /** multipart/form-data instead of a JSON body: text fields and the file (POST /finance/imports) */
  form?: { fields: Record<string, string>; file: Buffer };
  /** the allowed caller's token for this call instead of its role's shared one */
  token?: string;
}

const unique = () => randomBytes(5).toString('hex');
/** An id no record has: the call passes the guard and is answered 404 on its merits. */
const NO_SUCH_ID = 2_000_000_000;

/**
 * A plausible request per route, so that an allowed role gets past validation where it can. Pure:
 * nothing is created here (refused calls use the same bodies and must change nothing); whatever a
 * request needs was made in beforeAll. A route without an entry is called with `{}`.
 */
const PLAUSIBLE: Record<string, (f: Fixtures, role: Role) => Req> = {
  'POST /api/auth/signin': (f) => ({ body: f.signIn }),
  'POST /api/auth/signout': (f, role) => ({ token: f.signOutTokens[role] }),
  'POST /finance/users/create': () => ({
    body: { username: `matrix-${unique()}`, password: 'matrix-password-1', role: 'COLLECTOR' },
  }),
  'GET /finance/users': () => ({ query: { page: 1, limit: 5 } }),
  'POST /finance/users/disable': (f) => ({ body: { id: f.disableUserId } }),
  'POST /finance/users/password': (f) => ({ body: { id: f.passwordUserId, password: 'another-password-1' } }),
  'POST /finance/users/enable': (f) => ({ body: { id: f.disableUserId } }),
  'POST /finance/deals/create': () => ({ body: dealBody() }),
  'POST /finance/deals/deactivate': (f) => ({ body: { dealid: f.spareDealid } }),
  'GET /finance/deals': () => ({ query: { page: 1, limit: 5, active: 'true' } }),
  'POST /finance/customers/register': (f) => ({ body: registrationBody(f.dealid) }),
  'POST /finance/customers/salesstage': (f) => ({
    body: { customerid: f.customerid, salesstage: 'VERIFICATION' },
  }),
  'POST /finance/customers/approve': (f) => ({ body: { customerid: f.customerid } }),
  'POST /finance/customers/bonus': (f) => ({ body: { customerid: f.customerid, days: 2 } }),
  'POST /finance/customers/find': (f) => ({ body: { accountnumber: f.accountnumber } }),
  'GET /finance/customers': () => ({ query: { page: 1, limit: 5, search: 'Customer' } }),
  'GET /finance/customers/{customerid}': (f) => ({
    path: fillPath('/finance/customers/{customerid}', { customerid: f.customerid }),
  }),
  'POST /finance/accounts/info': (f) => ({ body: { accountid: f.accountid } }),
  'POST /finance/payments/load': (f) => ({
    body: {
      customerid: f.customerid,
      amount: 1500,
      reference: `MATRIX-${unique()}`,
      narration: 'Role matrix',
    },
  }),
  'POST /finance/payments/recent': (f) => ({ body: { customerid: f.customerid, limit: 5 } }),
  'POST /finance/payments/recon': () => ({ body: { reference: `MATRIX-RECON-${unique()}` } }),
  'POST /finance/amlogs/callback': () => ({
    body: { transaction: { id: `MATRIX-CB-${unique()}`, amount: 1000, tag: 'NO-SUCH-PAYG-CODE' } },
  }),
  'POST /finance/amlogs/lookup': () => ({ body: { startdate: '2026-01-01', enddate: '2026-01-15' } }),
  'GET /finance/amlogs/unmatched': () => ({ query: { page: 1, limit: 5 } }),
  'POST /finance/amlogs/assign': (f, role) => ({
    body: { transactionid: f.unmatched[role] ?? 'MATRIX-NO-SUCH-TRANSACTION', customerid: f.customerid },
  }),
  'POST /finance/device/lock-update': (f) => ({
    body: { customerid: f.customerid, payg: f.payg, serialnumber: 'SN-MATRIX-1' },
  }),
  'POST /finance/device/unlock-temp': (f) => ({ body: { customerid: f.customerid, hours: 2 } }),
  'POST /finance/device/bonus-days': (f) => ({ body: { customerid: f.customerid, days: 1 } }),
  'POST /finance/device/sync-status': (f) => ({ body: { customerid: f.customerid } }),
  'GET /finance/device/commands': (f) => ({ query: { customerid: f.customerid } }),
  'POST /finance/contracts/repossess': (f) => ({
    body: { customerid: f.repossessCustomerid, reason: 'Role matrix: customer unreachable.' },
  }),
  'POST /finance/inventory/add': () => ({
    body: { itemname: `Matrix phone ${unique()}`, quantity: 3, unitcost: 45000, supplier: 'Matrix supplies' },
  }),
  'POST /finance/inventory/details': () => ({ body: { itemid: NO_SUCH_ID } }),
  'POST /finance/inventory/adjust': () => ({ body: { itemid: NO_SUCH_ID, delta: 1, reason: 'Role matrix' } }),
  'GET /finance/inventory': () => ({ query: { page: 1, limit: 5 } }),
  'GET /finance/collections/calls': () => ({ query: { page: 1, limit: 5, status: 'PENDING' } }),
  // a collector may name only themselves (anyone else: 403 before the call is looked at)
  'POST /finance/collections/assign': (f, role) => ({ body: { callid: NO_SUCH_ID, userid: role === COLLECTOR ? f.collectorId : f.disableUserId } }),
  'POST /finance/collections/update': () => ({
    body: { callid: NO_SUCH_ID, status: 'CALLED', notes: 'Role matrix: no answer.' },
  }),
  'GET /finance/reports/portfolio': () => ({ query: { startdate: '2026-01-01', enddate: '2026-01-15' } }),
  'POST /finance/feedback/create': (f) => ({
    body: { customerid: f.customerid, message: 'Role matrix: the lamp flickers.', category: 'DEVICE' },
  }),
  'GET /finance/feedback': (f) => ({ query: { page: 1, limit: 5, customerid: f.customerid } }),
  'GET /finance/messages': (f) => ({ query: { page: 1, limit: 5, customerid: f.customerid, status: 'PENDING' } }),
  'POST /finance/messages/send': (f) => ({ body: { customerid: f.customerid, text: 'Role matrix: your agent calls tomorrow.' } }),
  'GET /finance/customers/preferences': (f) => ({ query: { customerid: f.customerid } }),
  'POST /finance/customers/preferences': (f) => ({ body: { customerid: f.customerid, language: 'sw', smsoptout: false } }),
  // the gateway's key, an id no message has: 200 and nothing changes
  'POST /sms/delivery-reports': () => ({ query: { key: 'matrix-sms-callback-key' }, body: { id: 'ATXid_matrix', status: 'Success' } }),
  'POST /finance/imports': () => ({ form: { fields: { kind: 'payments', mode: 'validate' }, file: Buffer.from('externalid,payg,amount,reference,date\r\n') } }),
  'GET /finance/imports': () => ({ query: { page: 1, limit: 5 } }),
  'GET /finance/imports/{importid}': (f) => ({ path: fillPath('/finance/imports/{importid}', { importid: f.importid }) }),
  'GET /finance/exports/payments.csv': () => ({ query: { startdate: '2026-01-01', enddate: '2026-01-15' } }),
};

const ROWS = Object.entries(ROLE_TABLE);
const PROTECTED = ROWS.filter(([, roles]) => roles !== 'public').map(([key]) => key);

/** Tokens the guard must refuse, each with the exact message of DESIGN part 3. */
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const adminClaims = { sub: 1, username: 'admin', role: ADMIN, env: 'uat' };
const now = () => Math.floor(Date.now() / 1000);
const ATTACKS: [string, () => string, string][] = [
  [
    'an expired token',
    () =>
      jwt.sign({ ...adminClaims, iat: now() - 7200, exp: now() - 60 }, TEST_JWT_SECRET, {
        algorithm: 'HS256',
        issuer: 'payg-uat',
      }),
    'Unauthorized! Access Token was expired!',
  ],
  [
    'a bad signature',
    () =>
      jwt.sign(adminClaims, 'not-the-secret-not-the-secret-0123456789', {
        algorithm: 'HS256',
        issuer: 'payg-uat',
        expiresIn: 3600,
      }),
    'Unauthorized!',
  ],
  [
    'alg none',
    () =>
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...adminClaims, iss: 'payg-uat', iat: now(), exp: now() + 3600 })}.`,
    'Unauthorized!',
  ],
  [
    'another environment’s token',
    () =>
      jwt.sign({ ...adminClaims, env: 'production' }, TEST_JWT_SECRET, {
        algorithm: 'HS256',
        issuer: 'payg-production',
        expiresIn: 3600,
      }),
    'Unauthorized!',
  ],
];

describe('Role matrix: every route × no token, every staff role and forged tokens', () => {
  let t: TestApp;
  let sim: ProviderSimulator;
  let f: Fixtures;
  const tokens = {} as Record<Role, string>;
  let requests = 0;

  beforeAll(async () => {
    sim = await startProviderSimulator({ apiKey: 'matrix-provider-key' });
    t = await startTestApp({
      env: { MOBILE_MONEY_API_URL: sim.url, MOBILE_MONEY_API_KEY: 'matrix-provider-key', SMS_CALLBACK_KEY: 'matrix-sms-callback-key' },
    });
    for (const role of STAFF) tokens[role] = await t.token(role);
    const deal = await createDeal(t);
    const spare = await createDeal(t);
    const customer = await registerCustomer(t, deal.dealid);
    const repossessed = await registerCustomer(t, deal.dealid);
    const details = await t.http
      .get(`/finance/customers/${customer.customerid}`)
      .set('x-access-token', tokens[ADMIN])
      .expect(200);
    const signInUser = await t.user(COLLECTOR);
    const unmatched: Partial<Record<Role, string>> = {};
    for (const role of ROLE_TABLE['POST /finance/amlogs/assign'] as Role[]) {
      const id = `MATRIX-UNMATCHED-${unique()}`;
      await t.http
        .post('/finance/amlogs/callback')
        .set('x-access-token', tokens[ADMIN])
        .send({ transaction: { id, amount: 2500, tag: `NOBODY-${unique()}` } })
        .expect(200);
      unmatched[role] = id;
    }
    f = {
      dealid: deal.dealid,
      spareDealid: spare.dealid,
      customerid: customer.customerid,
      payg: customer.payg,
      accountid: details.body.accountid,
      accountnumber: details.body.accountnumber,
      repossessCustomerid: repossessed.customerid,
      disableUserId: (await t.user(OPERATOR)).id,
      collectorId: Number((jwt.decode(tokens[COLLECTOR]) as jwt.JwtPayload).sub),
      passwordUserId: (await t.user(OPERATOR)).id,
      signIn: { username: signInUser.username, password: signInUser.password },
      signOutTokens: Object.fromEntries(await Promise.all(STAFF.map(async (role) => [role, (await t.user(role)).token]))) as Record<Role, string>,
      unmatched,
      importid: (
        await t.http
          .post('/finance/imports')
          .set('x-access-token', tokens[ADMIN])
          .field('kind', 'payments')
          .field('mode', 'validate')
          .attach('file', Buffer.from('externalid,payg,amount,reference,date\r\n'), 'matrix.csv')
          .expect(200)
      ).body.importid,
    };
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
    if (process.env.PAYG_FUZZ_SUMMARY) console.info(`role matrix: ${requests} requests`);
  });

  const send = (key: string, req: Req, token?: string) => {
    requests++;
    const [method, path] = key.split(' ');
    const url = req.path ?? path;
    let r = method === 'GET' ? t.http.get(url) : t.http.post(url);
    if (req.query) r = r.query(req.query);
    if (token !== undefined) r = r.set('x-access-token', token);
    if (req.form) {
      for (const [name, value] of Object.entries(req.form.fields)) r = r.field(name, value);
      return r.attach('file', req.form.file, 'matrix.csv');
    }
    return method === 'GET' ? r : r.send((req.body ?? {}) as object);
  };
  const requestFor = (key: string, role: Role) => (PLAUSIBLE[key] ?? (() => ({})))(f, role);
  const outcome = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });

  describe('the table and the OpenAPI document', () => {
    let documented: DocumentedOperation[];
    beforeAll(async () => {
      documented = await documentedOperations(t);
    });

    it('list exactly the same routes (a route without a row here, or a row for no route, fails)', () => {
      const inDocument = documented.map((op) => op.key);
      expect({
        documentedButNotInTable: inDocument.filter((key) => !(key in ROLE_TABLE)).sort(),
        inTableButNotDocumented: Object.keys(ROLE_TABLE)
          .filter((key) => !inDocument.includes(key))
          .sort(),
      }).toEqual({ documentedButNotInTable: [], inTableButNotDocumented: [] });
    });

    it('agree on the roles of every route, and ADMIN may call every protected route', () => {
      const mismatches = documented
        .filter((op) => op.key in ROLE_TABLE)
        .map((op) => ({ route: op.key, table: ROLE_TABLE[op.key], document: op.roles }))
        .filter(
          ({ table, document }) =>
            JSON.stringify(table === 'public' ? table : [...table].sort()) !==
            JSON.stringify(document === 'public' ? document : [...document].sort()),
        );
      expect(mismatches).toEqual([]);
      for (const key of PROTECTED) expect(ROLE_TABLE[key]).toContain(ADMIN);
    });

    it('has a plausible request for every route that needs more than an empty body', () => {
      expect(Object.keys(PLAUSIBLE).filter((key) => !(key in ROLE_TABLE))).toEqual([]);
    });
  });

  describe('refused calls: 401 or 403 with the exact message, and not one row written', () => {
    let before: Record<string, number>;
    beforeAll(async () => {
      before = await rowCounts(t);
    });

    it.each(PROTECTED)(
      '%s without a token (header absent or empty) → 401 "No token provided."',
      async (key) => {
        for (const token of [undefined, '']) {
          const res = await send(key, requestFor(key, ADMIN), token);
          expect({ token, ...outcome(res) }).toEqual({
            token,
            status: 401,
            body: { message: 'No token provided.' },
          });
        }
      },
    );

    it.each(PROTECTED)('%s with the token of a role it does not allow → 403 "Forbidden."', async (key) => {
      const allowed = ROLE_TABLE[key] as Role[];
      for (const role of STAFF.filter((r) => !allowed.includes(r))) {
        const res = await send(key, requestFor(key, role), tokens[role]);
        expect({ role, ...outcome(res) }).toEqual({ role, status: 403, body: { message: 'Forbidden.' } });
      }
    });

    it.each(PROTECTED)(
      '%s with an expired, badly signed, alg-none or other-environment token → 401',
      async (key) => {
        for (const [attack, makeToken, message] of ATTACKS) {
          const res = await send(key, requestFor(key, ADMIN), makeToken());
          expect({ attack, ...outcome(res) }).toEqual({ attack, status: 401, body: { message } });
        }
      },
    );

    it('left every row count as it was', async () => {
      expect(await rowCounts(t)).toEqual(before);
    });
  });

  describe('allowed calls get through the guard', () => {
    it.each(ROWS.map(([key]) => key))('%s', async (key) => {
      const roles = ROLE_TABLE[key];
      const callers: (Role | 'no token')[] = roles === 'public' ? ['no token', ...STAFF] : roles;
      for (const caller of callers) {
        const req = requestFor(key, caller === 'no token' ? ADMIN : caller);
        const res = await send(key, req, caller === 'no token' ? undefined : (req.token ?? tokens[caller]));
        const seen = { caller, status: res.status };
        // A plausible request may still be refused on its merits (400/404/409), never by the guard,
        // and never with a server error; a GET with good parameters answers 200.
        if (key.startsWith('GET ')) expect(seen).toEqual({ caller, status: 200 });
        else
          expect({ ...seen, passedTheGuard: [200, 201, 400, 404, 409].includes(res.status) }).toEqual({
            ...seen,
            passedTheGuard: true,
          });
        if (res.status >= 400)
          expect({ caller, body: res.body, isMessage: isMessageBody(res.body) }).toEqual({
            caller,
            body: res.body,
            isMessage: true,
          });
      }
    });
  });

  it('leaves the ledger as the payments imply (npm run ledger:verify exits 0)', async () => {
    await expectLedgerConsistent(t);
    expect(await runLedgerVerify(t.databaseUrl)).toEqual({ code: 0, out: expect.stringContaining('"differences":0') });
  });
});
