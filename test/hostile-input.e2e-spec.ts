import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { randomBytes } from 'node:crypto';
import { Role } from '../src/common/auth/role.js';
import { ProviderSimulator, startProviderSimulator } from '../tools/simulators/provider-simulator.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import {
  documentedOperations,
  DocumentedOperation,
  fillPath,
  isMessageBody,
  rowCounts,
  Schema,
} from './support/routes.js';
import { startTestApp, TestApp, TEST_JWT_SECRET } from './support/test-app.js';
import { runLedgerVerify } from './support/faults.js';
import { expectLedgerConsistent } from './support/ledger.js';

/**
 * Hostile input on every route, with an ADMIN token (so the guard lets everything through to the
 * parser and the validator). POST routes are taken from /docs-json, so a new route is fuzzed too.
 *
 * Every answer must be a 2xx or one of ERROR_STATUSES with a body that is exactly {message: string},
 * never a 5xx; a request that is not answered 2xx must leave every main table's row count as it was.
 * Bodies built to be invalid (wrong JSON types, not an object, unknown keys, deep nesting) must get 400.
 *
 * PAYG_LONG_TESTS=1 runs 5,000 random cases per route instead of 50 (PAYG_FUZZ_RUNS=n: n).
 */
const LONG = process.env.PAYG_LONG_TESTS === '1';
/** PAYG_FUZZ_RUNS overrides the count, e.g. to replay a failure's seed with more or fewer runs. */
const RUNS = Number(process.env.PAYG_FUZZ_RUNS) || (LONG ? 5000 : 50);
const ERROR_STATUSES = [400, 401, 403, 404, 409, 413, 415, 429];
const SIGNIN = 'POST /api/auth/signin';
const SIGNOUT = 'POST /api/auth/signout';

interface Case {
  family: string;
  /** null: no Content-Type header at all. */
  contentType: string | null;
  payload: string;
  /** Built so that no valid request can come out of it: the answer must be 400 (or 429 from sign-in's rate limit). */
  invalid: boolean;
  /** An exact status the answer must have, for the fixed cases. */
  expect?: number;
  /** An unknown field a webhook (the provider's callback, the gateway's delivery reports) drops instead of refusing. */
  unknownField?: true;
  /** How deep the body nests, for the deep-nesting cases. */
  depth?: number;
}

/** Whether any string or number in a JSON value (keys included) passes `test`; iterative, as values may nest 10,000 deep. */
function some(value: unknown, test: (leaf: string | number) => boolean): boolean {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string' || typeof v === 'number') {
      if (test(v)) return true;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object')
      for (const [k, child] of Object.entries(v)) {
        if (test(k)) return true;
        stack.push(child);
      }
  }
  return false;
}
const hasNul = (leaf: string | number) => typeof leaf === 'string' && leaf.includes('\u0000');
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// Ten service bugs this file found were fixed in src/ (NUL and lone surrogates in text, pages beyond
// any offset, 10,000-deep nesting, form-urlencoded bodies, int4 ids, 1e-7 amounts, Object.prototype
// keys, over-long request lines and path parameters); each keeps a regression test at the end.

// --- value generators -------------------------------------------------------------------------

const controlChars = fc.string({
  unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 12,
});
const KB10 = 10 * 1024;
/** Strings that have broken services before: control and invisible characters, surrogates, emoji, injections, 10 kB. */
// prettier-ignore
const HOSTILE_STRINGS = [
  '', ' ', '\t\n\r', '\u200b', '\u202eevil', '\ufeffBOM', '\ud800', 'a\udfffb', '😀', '👨‍👩‍👧‍👦', '🏳️‍🌈', 'null',
  'undefined', 'NaN', '-0', '1e21', "' OR '1'='1' --", '%', '_', '\\', '"', '%00', '..', '.',
  '../../etc/passwd', '<script>alert(1)</script>', '${7*7}', '{{7*7}}', 'x'.repeat(256), 'Ω'.repeat(300),
  'x'.repeat(KB10), '😀'.repeat(KB10 / 4), '\u0001'.repeat(KB10),
];
const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  controlChars,
  fc
    .tuple(fc.string({ maxLength: 8 }), controlChars, fc.string({ maxLength: 8 }))
    .map((parts) => parts.join('')),
  fc.constantFrom(...HOSTILE_STRINGS),
);

/** For query strings: a request line over 16 kB is refused by Node before the service sees it (431 {message}, see the regression tests). */
const shortHostileString = hostileString.filter((v) => v.length <= 300);
/** A URL cannot carry a lone surrogate: it becomes U+FFFD (invalid UTF-8 in URLs is sent raw, in `extra`). */
const wellFormed = (v: string) => v.replace(new RegExp(LONE_SURROGATE, 'g'), '\ufffd');

/** Bounds and their neighbours, the int4 edge, unsafe integers, precision traps. */
// prettier-ignore
const HOSTILE_NUMBERS = [
  -0, 0, 1e21, -1e21, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, -1, 1, 2, 0.1, 0.005, 0.015, 1.999,
  100.001, 2147483647, 2147483648, -2147483648, 4294967296, Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER, 1e9, 1e9 + 0.01, 999999999.99, 1e15, 7, 365, 366, 168,
  169, 100, 101, 120, 121,
];
const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

// prettier-ignore
const HOSTILE_DATES = [
  '2026-02-30', '2026-02-29', '2024-02-29', '2026-13-01', '2026-00-10', '2026-01-32', '0000-00-00',
  '0000-01-01', '9999-12-31', '2026-1-1', '2026-01-01T00:00:00Z', '20260101', '-2026-01-01', '+202601-01',
  '2026-01-01\n', ' 2026-01-01', '2026/01/01', '01-01-2026',
];
const hostileDate: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_DATES),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc
    .date({ min: new Date('2025-12-01'), max: new Date('2026-03-01'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  hostileString,
);

const hostileEnum = (values: unknown[]): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...values.map(String)),
    fc
      .constantFrom(...values.map(String))
      .chain((v) => fc.constantFrom(v.toLowerCase(), ` ${v}`, `${v}\n`, `${v}\u0000`, v.slice(1))),
    fc.constantFrom('', 'ADMIN', 'CUSTOMER', 'KING', 'null'),
    hostileString,
  );

type Kind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';
const kindOfSchema = (s: Schema): Kind =>
  s.properties ? 'object' : s.type === 'integer' ? 'number' : ((s.type as Kind | undefined) ?? 'string');
const kindOfValue = (v: unknown): Kind =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as Kind);

/** A value of the right JSON type for the field, chosen to hurt: bounds, precision, control characters, 10 kB strings. */
function hostileOfType(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.properties) {
    const props = schema.properties;
    return fc.record(
      Object.fromEntries(
        Object.entries(props).map(([name, s]) => [
          name,
          fc.oneof(fc.constant(sampleOf(name, s)), hostileOfType(s)),
        ]),
      ),
    );
  }
  if (schema.enum) return hostileEnum(schema.enum);
  if (schema.format === 'date') return hostileDate;
  switch (schema.type) {
    case 'number':
    case 'integer':
      return hostileNumber;
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schema.items ? hostileOfType(schema.items) : fc.jsonValue(), { maxLength: 5 });
    default:
      return hostileString;
  }
}

/** A value of another JSON type than the field's: never valid, since the service does not coerce. */
function wrongTypeOf(schema: Schema): fc.Arbitrary<unknown> {
  const kind = kindOfSchema(schema);
  return fc
    .oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom<unknown>(
        null,
        true,
        false,
        0,
        1,
        -1,
        42,
        1e21,
        [],
        {},
        [1],
        { a: 1 },
        '1',
        '42',
        ' 7 ',
        '1e3',
        '0x10',
        'true',
        'null',
        '2026-01-01',
        '',
      ),
      hostileString,
    )
    .filter((v) => kindOfValue(v) !== kind && !(kind === 'number' && kindOfValue(v) === 'number'));
}

/** Numbers written as raw JSON text: some are not JSON at all, some parse to ±Infinity, some are valid. */
// prettier-ignore
const RAW_NUMBERS = [
  'NaN', 'Infinity', '-Infinity', '-0', '1e21', '-1e21', '1e999', '-1e999', '1E2', '1.0', '0.1e1', '01', '00',
  '0x1F', '.5', '5.', '+1', '1_000', '123456789012345678901234567890', '4.9e-324', '1e-400',
  '9007199254740993', '-9223372036854775809', 'undefined', 'true', 'null', '"1"', '[]', '{}', '"\\ud800"',
  'tru', "'x'", '/*c*/1', '1 2',
];

/** Keys that poison prototypes or shadow Object methods, for bodies that must be refused. */
// prettier-ignore
const NASTY_KEYS = [
  '__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__',
  'isAdmin', 'role ', ' customerid', 'customerId', '',
];

// --- fixtures that make valid-looking bodies reach the service's logic -------------------------

interface Fixtures {
  dealid: number;
  customerid: number;
  accountid: number;
  accountnumber: string;
  spareUserId: number;
  /** who signs out: each case with a token of its own (a sign-out that succeeds ends the token it was sent with) */
  signOutUser: { id: number; username: string };
  unmatchedTransactionId: string;
}
let fixtures: Fixtures;

/** A value the validator accepts for a field: the fixtures' real ids where the name says so, else the document's example. */
function sampleOf(name: string, schema: Schema): unknown {
  const byName: Record<string, unknown> = {
    customerid: fixtures.customerid,
    dealid: fixtures.dealid,
    accountid: fixtures.accountid,
    accountnumber: fixtures.accountnumber,
    transactionid: fixtures.unmatchedTransactionId,
  };
  if (name === 'id' && kindOfSchema(schema) === 'number') return fixtures.spareUserId; // never the admin: a password change or disable would end the run
  if (name in byName) return byName[name];
  if (schema.properties)
    return Object.fromEntries(Object.entries(schema.properties).map(([n, s]) => [n, sampleOf(n, s)]));
  if (schema.example !== undefined) return schema.example;
  if (schema.enum) return schema.enum[0];
  return kindOfSchema(schema) === 'number' ? 1 : 'x';
}

const sampleBody = (schema: Schema) => sampleOf('', schema) as Record<string, unknown>;

const nested = (depth: number, kind: 'array' | 'object', leaf = '1') =>
  kind === 'array'
    ? `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
const json = 'application/json';

/** How a case prints in fast-check's report: long payloads are cut (a 10,000-level body would flood the log). */
const short = (payload: string) =>
  payload.length > 300 ? `${payload.slice(0, 300)}… (${payload.length} characters)` : payload;
function printable(c: Case): Case {
  return Object.assign(c, {
    [fc.toStringMethod]: () =>
      `[${c.family}] content-type ${c.contentType ?? '(none)'} body ${JSON.stringify(short(c.payload))}`,
  });
}

/** The random cases for one POST route. */
function casesFor(schema: Schema | undefined): fc.Arbitrary<Case> {
  const props = schema?.properties ?? {};
  const names = Object.keys(props);
  const families: fc.Arbitrary<Case>[] = [
    // random JSON of any shape: never a valid body (but {} for a route without required fields)
    fc.jsonValue().map((v) => {
      const payload = JSON.stringify(v) ?? 'null';
      return { family: 'json value', contentType: json, payload, invalid: payload !== '{}' || !!schema?.required?.length };
    }),
  ];
  if (names.length) {
    families.push(
      // the route's own field names, at least one of them with a value of the wrong JSON type, perhaps an extra nasty key
      fc.constantFrom(...names).chain((bad) =>
        fc
          .record({
            others: fc.record(
              Object.fromEntries(
                names.map((n) => [
                  n,
                  fc.oneof(
                    fc.constant(sampleOf(n, props[n])),
                    hostileOfType(props[n]),
                    wrongTypeOf(props[n]),
                  ),
                ]),
              ),
              { requiredKeys: [] },
            ),
            // null in an optional field is the field left out (IsOptional), not a wrong type
            bad: schema?.required?.includes(bad) ? wrongTypeOf(props[bad]) : wrongTypeOf(props[bad]).filter((v) => v !== null),
            extra: fc.option(
              fc.tuple(
                fc.constantFrom(...NASTY_KEYS.filter((k) => !names.includes(k))),
                fc.jsonValue({ maxDepth: 1 }),
              ),
            ),
          })
          .map(({ others, bad: value, extra }) => {
            const body: Record<string, unknown> = { ...others, [bad]: value };
            let payload = JSON.stringify(body);
            if (extra)
              payload = `${payload.slice(0, -1)}${payload.length > 2 ? ',' : ''}${JSON.stringify(extra[0])}:${JSON.stringify(extra[1])}}`;
            return { family: 'wrong types', contentType: json, payload, invalid: true };
          }),
      ),
      // a valid body with some fields replaced by hostile values of the right type: may be accepted
      fc
        .constantFrom(...names)
        .chain((forced) =>
          fc.record(
            Object.fromEntries(
              names.map((n) => [
                n,
                n === forced
                  ? hostileOfType(props[n])
                  : fc.oneof(fc.constant(sampleOf(n, props[n])), hostileOfType(props[n])),
              ]),
            ),
          ),
        )
        .map((body) => ({
          family: 'hostile values',
          contentType: json,
          payload: JSON.stringify(body),
          invalid: false,
        })),
      // raw number literals (NaN, Infinity, -0, 1e999, 0x1F…) in the body's text: may be accepted
      fc
        .record(
          Object.fromEntries(
            names.map((n) => [
              n,
              fc.oneof(fc.constant(JSON.stringify(sampleOf(n, props[n]))), fc.constantFrom(...RAW_NUMBERS)),
            ]),
          ),
        )
        .map((raw) => ({
          family: 'raw numbers',
          contentType: json,
          payload: `{${names.map((n) => `${JSON.stringify(n)}:${raw[n]}`).join(',')}}`,
          invalid: false,
        })),
      // nesting up to 10,000 levels, at the top or under a real field
      fc
        .record({
          depth: fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 10_000 })),
          kind: fc.constantFrom<'array' | 'object'>('array', 'object'),
          at: fc.constantFrom('', ...names),
        })
        .map(({ depth, kind, at }) => ({
          family: 'deep nesting',
          contentType: json,
          payload: at
            ? JSON.stringify({ ...sampleBody(schema!), [at]: '\u0000MARK' }).replace(
                '"\\u0000MARK"',
                nested(depth, kind),
              )
            : kind === 'array'
              ? nested(depth, kind)
              : `{"zz":${nested(depth, kind)}}`,
          invalid: true,
          depth,
        })),
    );
  }
  return fc.oneof(...families).map(printable);
}

/** Whole bodies that are not a JSON object, or not JSON at all. */
// prettier-ignore
const RAW_TEXTS = [
  'NaN', 'Infinity', '-Infinity', '-0', '1e21', '1e999', '', ' ', '\ufeff{}', '{', '}', '{}garbage',
  '{"a":1}{"b":2}', '{"a":}', "{'a':1}", '[]', '[{}]', 'null', 'true', '"text"', '{"a":NaN}',
  `{"x":${'9'.repeat(400)}}`,
];

/** The same hostile requests for every POST route, written out. */
function fixedCasesFor(schema: Schema | undefined): Case[] {
  const body = schema?.properties ? sampleBody(schema) : {};
  const text = JSON.stringify(body);
  const firstField = Object.keys(schema?.properties ?? {})[0];
  const firstString = Object.entries(schema?.properties ?? {}).find(
    ([, s]) => s.type === 'string' && !s.enum && !s.format,
  )?.[0];
  const padded = (bytes: number) =>
    firstString
      ? JSON.stringify({ ...body, [firstString]: 'x'.repeat(bytes) })
      : JSON.stringify({ ...body, padding: 'x'.repeat(bytes) });
  /** The sample body with one more `"key": value` written last (a duplicate key when it is a field: JSON.parse keeps the last). */
  const withKey = (key: string, value: string) =>
    `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${JSON.stringify(key)}:${value}}`;
  const cases: Case[] = [
    // wrong content types
    {
      family: 'content type text/plain',
      contentType: 'text/plain',
      payload: text,
      invalid: true,
      expect: 415,
    },
    { family: 'content type none', contentType: null, payload: text, invalid: true, expect: 415 },
    {
      family: 'content type xml',
      contentType: 'application/xml',
      payload: '<a>1</a>',
      invalid: true,
      expect: 415,
    },
    {
      family: 'content type multipart',
      contentType: 'multipart/form-data; boundary=x',
      payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
      invalid: true,
      expect: 415,
    },
    {
      family: 'content type octet-stream',
      contentType: 'application/octet-stream',
      payload: text,
      invalid: true,
      expect: 415,
    },
    {
      family: 'content type form-urlencoded',
      contentType: 'application/x-www-form-urlencoded',
      payload: text,
      invalid: true,
      expect: 415,
    },
    // size
    {
      family: 'body over 100 kB',
      contentType: json,
      payload: padded(110 * 1024),
      invalid: true,
      expect: 413,
    },
    {
      family: 'body of 10 MB',
      contentType: json,
      payload: padded(10 * 1024 * 1024),
      invalid: true,
      expect: 413,
    },
    // prototype poisoning and its cousins
    {
      family: '__proto__ key',
      contentType: json,
      payload: withKey('__proto__', '{"role":"ADMIN","isAdmin":true}'),
      invalid: true,
      expect: 400,
    },
    {
      family: 'constructor.prototype key',
      contentType: json,
      payload: withKey('constructor', '{"prototype":{"isAdmin":true}}'),
      invalid: true,
      expect: 400,
    },
    // keys named after Object.prototype members are unknown fields like any other
    { family: 'constructor key', contentType: json, payload: withKey('constructor', '1'), invalid: true, expect: 400, unknownField: true },
    { family: 'toString key', contentType: json, payload: withKey('toString', '"x"'), invalid: true, expect: 400, unknownField: true },
    {
      family: 'hasOwnProperty key',
      contentType: json,
      payload: withKey('hasOwnProperty', '{"a":1}'),
      invalid: true,
      expect: 400,
      unknownField: true,
    },
    // text PostgreSQL cannot store, in a field no route declares
    { family: 'NUL in an unknown field', contentType: json, payload: withKey('note', '"a\\u0000b"'), invalid: true, expect: 400, unknownField: true },
    { family: 'lone surrogate in an unknown key', contentType: json, payload: withKey('k\ud800', '1'), invalid: true, expect: 400, unknownField: true },
    // null in an optional field reads as the field left out (IsOptional): never a 5xx, a refusal is a 4xx {message}
    ...Object.keys(schema?.properties ?? {})
      .filter((name) => !schema?.required?.includes(name))
      .map((name): Case => ({ family: `optional ${name} null`, contentType: json, payload: JSON.stringify({ ...body, [name]: null }), invalid: false })),
    // texts that are not a JSON object
    ...RAW_TEXTS.map((payload): Case =>
      // a byte-order mark before {} may be ignored (RFC 8259 §8.1): for a route without required fields it is just {}
      payload === '\ufeff{}' && !schema?.required?.length
        ? { family: 'raw text "\\ufeff{}"', contentType: json, payload, invalid: false }
        : { family: `raw text ${JSON.stringify(payload)}`, contentType: json, payload, invalid: true, expect: 400 },
    ),
    // 10,000 levels, as the body or under a field: refused with 400 before anything walks them
    {
      family: '10,000 nested arrays as the body',
      contentType: json,
      payload: nested(10_000, 'array'),
      invalid: true,
      expect: 400,
      depth: 10_000,
    },
    {
      family: '10,000 nested objects as the body',
      contentType: json,
      payload: nested(10_000, 'object'),
      invalid: true,
      depth: 10_000,
    },
    {
      family: '10,000 nested arrays under a field',
      contentType: json,
      payload: withKey(firstField ?? 'zz', nested(10_000, 'array')),
      invalid: true,
      depth: 10_000,
    },
  ];
  if (firstString) {
    cases.push(
      {
        family: 'NaN in a field',
        contentType: json,
        payload: withKey(firstString, 'NaN'),
        invalid: true,
        expect: 400,
      },
      {
        family: 'duplicate key with a wrong type last',
        contentType: json,
        payload: withKey(firstString, '{"$gt":""}'),
        invalid: true,
        expect: 400,
      },
    );
  }
  return cases;
}

// prettier-ignore
const GARBAGE_PAGES = [
  '', ' ', '0', '-0', '-1', '00', '1.5', '1.0', '1e3', '1E1', '0x10', '0b1', 'NaN', 'Infinity', '-Infinity',
  '１', '١', ' 1', '1 ', '+1', '1,2', 'null', 'true', '[]', '{}', '1;DROP TABLE users', `${'9'.repeat(400)}`,
  '\u0000', '%00',
];
/** Garbage for page and limit: never a whole number in range. */
const garbagePageValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...GARBAGE_PAGES),
  fc.integer({ max: 0 }).map(String),
  fc.double({ noInteger: true }).map(String),
  fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !/^-?\d+$/.test(s)),
);

const isWholeNumberIn = (value: string, min: number, max: number) =>
  /^-?\d+$/.test(value) && Number.isInteger(Number(value)) && Number(value) >= min && Number(value) <= max;

/** The SMS gateway's delivery reports: behind their own key (given, so bodies reach validation), and forms are its format. */
const SMS_REPORTS = 'POST /sms/delivery-reports';
const WEBHOOKS = ['POST /finance/amlogs/callback', SMS_REPORTS];
const SMS_CALLBACK_KEY = 'fuzz-sms-callback-key';

// The app starts while the file loads (ESM top-level await) so that the POST routes of its OpenAPI
// document can name one test each: a new route is fuzzed without touching this file.
const sim: ProviderSimulator = await startProviderSimulator({ apiKey: 'fuzz-provider-key' });
// with a provider, lookup and recon with a valid body answer 200 rather than 503 "not configured"
const t: TestApp = await startTestApp({
  env: { MOBILE_MONEY_API_URL: sim.url, MOBILE_MONEY_API_KEY: 'fuzz-provider-key', SMS_CALLBACK_KEY: SMS_CALLBACK_KEY },
});
const operations: DocumentedOperation[] = await documentedOperations(t);
/**
 * Documented exception: POST /finance/imports takes multipart/form-data (a CSV file), not JSON; it
 * is fuzzed with forms of its own below (a JSON or text body there is a 415).
 */
const MULTIPART = ['POST /finance/imports'];
const POSTS = operations.filter((op) => op.method === 'POST' && !MULTIPART.includes(op.key));
const GETS_WITH_PARAMETERS = operations.filter((op) => op.method === 'GET' && op.parameters.length > 0);

describe('Hostile input: every route answers 2xx or a 4xx {message}, never a 5xx, and refused requests write nothing', () => {
  let admin: string;
  const stats = { requests: 0 };

  beforeAll(async () => {
    admin = await t.token(Role.ADMIN);
    const deal = await createDeal(t);
    const customer = await registerCustomer(t, deal.dealid);
    const details = await t.http
      .get(`/finance/customers/${customer.customerid}`)
      .set('x-access-token', admin)
      .expect(200);
    const unmatchedTransactionId = 'FUZZ-UNMATCHED-1';
    await t.http
      .post('/finance/amlogs/callback')
      .set('x-access-token', admin)
      .send({ transaction: { id: unmatchedTransactionId, amount: 5000, tag: 'NOBODY-HAS-THIS-CODE' } })
      .expect(200);
    fixtures = {
      dealid: deal.dealid,
      customerid: customer.customerid,
      accountid: details.body.accountid,
      accountnumber: details.body.accountnumber,
      spareUserId: (await t.user(Role.OPERATOR)).id,
      signOutUser: await t.user(Role.COLLECTOR),
      unmatchedTransactionId,
    };
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
    if (process.env.PAYG_FUZZ_SUMMARY)
      console.info(
        `hostile input: ${stats.requests} requests`,
      );
  });

  /**
   * The acting administrator (id 1) is never the target of a user route: a random id of 1 with a valid
   * password would change its password and end every later request of the run with 401.
   */
  function spareActingAdmin(key: string, c: Case): Case {
    if (!key.startsWith('POST /finance/users/')) return c;
    try {
      const body = JSON.parse(c.payload) as unknown;
      if (body && typeof body === 'object' && !Array.isArray(body) && (body as { id?: unknown }).id === 1) {
        return { ...c, payload: JSON.stringify({ ...body, id: fixtures.spareUserId }) };
      }
    } catch {
      // not JSON: nothing to spare
    }
    return c;
  }

  /** A token of its own for the sign-out user, as a sign-in would make it (its own jti). */
  function signOutToken(): string {
    const { id, username } = fixtures.signOutUser;
    return jwt.sign({ sub: id, username, role: Role.COLLECTOR, env: 'uat', ver: 1 }, TEST_JWT_SECRET, { algorithm: 'HS256', issuer: 'payg-uat', expiresIn: 3600, jwtid: randomBytes(12).toString('base64url') });
  }

  /** Sends one case and checks the answer and the row counts; `counts` is the state before, updated to the state after. */
  async function check(
    key: string,
    path: string,
    c: Case,
    counts: { value: Record<string, number> },
  ): Promise<void> {
    stats.requests++;
    c = spareActingAdmin(key, c);
    // a webhook drops unknown fields, whatever they are called or hold: the notification still counts
    if (c.unknownField && WEBHOOKS.includes(key)) c = { ...c, invalid: false, expect: undefined };
    const token = key === SIGNOUT ? signOutToken() : admin;
    let r = t.http.post(key === SMS_REPORTS ? `${path}?key=${SMS_CALLBACK_KEY}` : path).set('x-access-token', token);
    r = r.set('content-type', c.contentType ?? 'text/plain').send(c.payload);
    if (c.contentType === null) r = r.unset('Content-Type');
    const res = await r;
    const after = await rowCounts(t);
    const success = res.status >= 200 && res.status < 300;
    const problems: string[] = [];
    // sign-in's rate limit runs before validation: once a username (or none) has had 10 tries, 429 replaces the 400
    const rateLimited = key === SIGNIN && res.status === 429 && (c.expect ?? 400) === 400;
    // a form is what that route takes: JSON text sent as a form is a form without the fields, so 400
    const expected = key === SMS_REPORTS && c.contentType === 'application/x-www-form-urlencoded' ? 400 : c.expect;
    if (expected !== undefined) {
      if (res.status !== expected && !rateLimited) problems.push(`status should be ${expected}`);
    } else if (c.invalid) {
      if (res.status !== 400 && !rateLimited) problems.push('an invalid body should be answered 400');
    } else if (!success && !ERROR_STATUSES.includes(res.status)) {
      problems.push('status is neither 2xx nor an expected 4xx');
    }
    if (!success && !isMessageBody(res.body)) problems.push('error body is not exactly {message: string}');
    if (success && (typeof res.body !== 'object' || res.body === null))
      problems.push('a success should answer JSON');
    if (!success && JSON.stringify(after) !== JSON.stringify(counts.value))
      problems.push(`row counts changed: ${JSON.stringify(counts.value)} → ${JSON.stringify(after)}`);
    counts.value = after;
    if (problems.length) {
      throw new Error(
        `${key} [${c.family}] content-type ${c.contentType ?? '(none)'} body ${JSON.stringify(short(c.payload))}\n→ ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}\n${problems.join('\n')}`,
      );
    }
  }

  it('finds the POST routes to fuzz in /docs-json', () => {
    expect(POSTS.length).toBeGreaterThan(20);
    expect(POSTS.map((op) => op.key)).toContain(SIGNIN);
  });

  const LONG_TIMEOUT = Math.max(90_000, RUNS * 1_000);

  it.each(POSTS.map((op) => [op.key, op] as const))(
    `%s: ${RUNS} random bodies`,
    async (key, op) => {
      const counts = { value: await rowCounts(t) };
      await fc.assert(
        fc.asyncProperty(casesFor(op.body), (c) => check(key, op.path, c, counts)),
        { numRuns: RUNS, endOnFailure: true },
      );
    },
    LONG_TIMEOUT,
  );

  it.each(POSTS.map((op) => [op.key, op] as const))(
    '%s: wrong content types, 100 kB and 10 MB bodies, prototype keys, non-JSON text, 10,000 nested arrays',
    async (key, op) => {
      const counts = { value: await rowCounts(t) };
      for (const c of fixedCasesFor(op.body)) await check(key, op.path, c, counts);
    },
  );

  it('finds the listing routes in /docs-json', () => {
    expect(GETS_WITH_PARAMETERS.map((op) => op.key)).toEqual(
      expect.arrayContaining([
        'GET /finance/users',
        'GET /finance/customers',
        'GET /finance/deals',
        'GET /finance/amlogs/unmatched',
      ]),
    );
  });

  it.each(GETS_WITH_PARAMETERS.map((op) => [op.key, op] as const))(
    `%s: ${RUNS} random query strings (garbage page and limit → 400)`,
    async (_key, op) => {
      const before = await rowCounts(t);
      const query = op.parameters.filter((p) => p.in === 'query');
      const pathParams = op.parameters.filter((p) => p.in === 'path');
      const valueFor = (p: DocumentedOperation['parameters'][number]): fc.Arbitrary<string> => {
        if (p.name === 'page' || p.name === 'limit')
          return fc.oneof(
            garbagePageValue,
            fc.integer({ min: 1, max: 100 }).map(String),
            fc.bigInt({ min: 1n, max: 10n ** 12n }).map(String),
          );
        const real =
          p.name === 'customerid'
            ? String(fixtures.customerid)
            : p.schema.enum
              ? String(p.schema.enum[0])
              : p.schema.type === 'boolean'
                ? 'true'
                : 'x';
        return fc.oneof(
          fc.constant(real),
          garbagePageValue,
          shortHostileString,
          p.schema.enum ? hostileEnum(p.schema.enum).filter((v) => v.length <= 300) : shortHostileString,
        );
      };
      const arb = fc.record({
        query: fc.record(Object.fromEntries(query.map((p) => [p.name, valueFor(p)])), { requiredKeys: [] }),
        // a path parameter over 200 characters is refused by the router itself (400, see the last test)
        path: fc.record(
          Object.fromEntries(
            pathParams.map((p) => [
              p.name,
              valueFor(p).filter((v) => encodeURIComponent(wellFormed(v)).length <= 200),
            ]),
          ),
        ),
        repeated: query.length ? fc.option(fc.constantFrom(...query.map((p) => p.name))) : fc.constant(null),
        extra: fc.option(
          fc.constantFrom(
            'page[a]=1',
            'limit[]=5',
            'unknown=1',
            '__proto__=1',
            'constructor[prototype][x]=1',
            '%=1',
            'a=%ZZ',
            '&&&',
            '=',
            'page',
            'limit=',
            'search=%ED%A0%80',
            'search=%FF%FE',
            'page=%C0%AF',
          ),
        ),
      });
      await fc.assert(
        fc.asyncProperty(arb, async ({ query: values, path: pathValues, repeated, extra }) => {
          stats.requests++;
          const parts = Object.entries(values).map(
            ([k, v]) => `${k}=${encodeURIComponent(wellFormed(String(v)))}`,
          );
          const duplicated = repeated && repeated in values ? repeated : undefined;
          if (repeated) parts.push(`${repeated}=1`);
          if (extra) parts.push(extra);
          const url = `${fillPath(op.path, Object.fromEntries(Object.entries(pathValues).map(([k, v]) => [k, wellFormed(v)])))}${parts.length ? `?${parts.join('&')}` : ''}`;
          const res = await t.http.get(url).set('x-access-token', admin);
          const problems: string[] = [];
          const page = values.page;
          const limit = values.limit;
          const badPaging =
            (page !== undefined && !isWholeNumberIn(page, 1, 1_000_000)) ||
            (limit !== undefined && !isWholeNumberIn(limit, 1, 100)) ||
            duplicated === 'page' ||
            duplicated === 'limit' ||
            (query.some((p) => p.name === 'page') && ['page', 'limit=', 'page=%C0%AF'].includes(extra ?? ''));
          // a NUL character in a value or a path parameter is refused before any query
          const hasNulValue = some(values, hasNul) || some(pathValues, hasNul);
          if (hasNulValue && res.status !== 400) problems.push('a NUL character should be answered 400');
          else if (badPaging && res.status !== 400)
            problems.push('garbage page or limit should be answered 400');
          else if (![200, 400, 404].includes(res.status)) problems.push('status should be 200, 400 or 404');
          if (res.status !== 200 && !isMessageBody(res.body))
            problems.push('error body is not exactly {message: string}');
          if (problems.length)
            throw new Error(
              `GET ${url}\n→ ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}\n${problems.join('\n')}`,
            );
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
      expect(await rowCounts(t)).toEqual(before);
    },
    LONG_TIMEOUT,
  );

  it(`POST /finance/imports (multipart): ${RUNS} random forms and files, JSON and text bodies → 2xx or 4xx {message}, never a 5xx, nothing in the book`, async () => {
    const before = await rowCounts(t);
    const field = fc.oneof(shortHostileString, fc.constantFrom('customers', 'payments', 'validate', 'apply', 'true', '{}', '{"a":"b"}', '[]'));
    const arb = fc.record({
      fields: fc.dictionary(fc.constantFrom('kind', 'mode', 'mapping', 'notify', 'source', 'extra', '__proto__', 'file'), field, { maxKeys: 6 }),
      file: fc.option(fc.oneof(fc.uint8Array({ maxLength: 2000 }).map((a) => Buffer.from(a)), fc.string({ maxLength: 500 }).map((s) => Buffer.from(`externalid,payg,amount,reference,date\r\n${s}`)))),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ fields, file }) => {
        stats.requests++;
        let r = t.http.post('/finance/imports').set('x-access-token', admin);
        for (const [k, v] of Object.entries(fields)) r = r.field(k, wellFormed(v));
        if (file) r = r.attach('file', file, 'fuzz.csv');
        else if (Object.keys(fields).length === 0) r = r.set('content-type', json).send('{"kind":"customers"}');
        const res = await r;
        if (res.status >= 500 || (res.status >= 400 && !isMessageBody(res.body))) throw new Error(`${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`);
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    // only validates can succeed here with a good mode, and an apply of random bytes fails its checks: the book is as it was
    expect(await rowCounts(t)).toEqual(before);
  }, LONG_TIMEOUT);

  // --- Regression tests for the ten bugs this file found (all fixed in src/). ---
  const post = (path: string, payload: string) =>
    t.http.post(path).set('x-access-token', admin).set('content-type', json).send(payload);

  // FIXED BUG 1: POST /finance/customers/find {"accountnumber":"AC\u0000"} → 500 {"message":"Internal server error."}
  // (PostgreSQL: invalid byte sequence for encoding "UTF8": 0x00). Same on every text field that reaches a query
  // (sign-in username, payments/load reference, recon reference, GET /finance/customers?search=%00, …).
  it('fixed bug 1: a NUL character in a text field is answered 400, not 500', async () => {
    const res = await post('/finance/customers/find', '{"accountnumber":"AC\\u0000"}');
    expect({ status: res.status, isMessage: isMessageBody(res.body) }).toEqual({ status: 400, isMessage: true });
  });

  // FIXED BUG 2: GET /finance/users?page=1000000000000000000 → 500 ("bigint out of range": OFFSET 19999999999999999980).
  it(
    'fixed bug 2: a page beyond any possible offset is answered 400, not 500',
    async () => {
      const res = await t.http.get('/finance/users?page=1000000000000000000').set('x-access-token', admin);
      expect({ status: res.status, isMessage: isMessageBody(res.body) }).toEqual({ status: 400, isMessage: true });
    },
  );

  // FIXED BUG 3: POST /finance/payments/recon with {"a":{"a":…}} nested 10,000 levels (60 kB) → 500
  // (RangeError: Maximum call stack size exceeded, in class-transformer; from about 1,500 levels, under any field too).
  it('fixed bug 3: a body nested 10,000 levels deep is answered 400, not 500', async () => {
    const res = await post('/finance/payments/recon', nested(10_000, 'object'));
    expect(res.status).toBe(400);
  });

  // FIXED BUG 4: POST /finance/users/create, content-type application/x-www-form-urlencoded,
  // "username=formuser1&password=form-password-1&role=OPERATOR" → 201 and the user exists (sign-in accepts forms too).
  it(
    'fixed bug 4: a form-urlencoded body is refused with 415 like any other non-JSON body',
    async () => {
      const before = await rowCounts(t);
      const res = await t.http
        .post('/finance/users/create')
        .set('x-access-token', admin)
        .type('form')
        .send(`username=form-${Date.now()}&password=form-password-1&role=OPERATOR`);
      expect({ status: res.status, body: res.body, users: (await rowCounts(t)).users }).toEqual({
        status: 415,
        body: { message: 'Unsupported Content-Type: send application/json.' },
        users: before.users,
      });
    },
  );

  // FIXED BUG 5: POST /finance/users/disable {"id":2147483648} → 500 (value "2147483648" is out of range for type integer).
  it(
    'fixed bug 5: a user id beyond the integer range is answered 400, not 500',
    async () => {
      const res = await post('/finance/users/disable', '{"id":2147483648}');
      expect({ status: res.status, isMessage: isMessageBody(res.body) }).toEqual({ status: 400, isMessage: true });
    },
  );

  // FIXED BUG 6: POST /finance/payments/recon {"reference":"a\udfffb"} → 500 (URIError: URI malformed in encodeURIComponent).
  it(
    'fixed bug 6: a lone surrogate in a recon reference is answered 400, not 500',
    async () => {
      // a reference nobody stored (a stored one is answered from the database, before the provider is asked)
      const res = await post('/finance/payments/recon', `{"reference":"BUG6-${Date.now()}-\\udfffb"}`);
      expect({ status: res.status, isMessage: isMessageBody(res.body) }).toEqual({ status: 400, isMessage: true });
    },
  );

  // FIXED BUG 7: POST /finance/deals/create {"dealname":"x","totalamount":600000,"deposit":60000,"monthly":1e-7,"months":12}
  // → 500 (TypeError: Cannot read properties of undefined (reading 'length'), class-validator isNumber with maxDecimalPlaces).
  it('fixed bug 7: an amount of 1e-7 is answered 400, not 500', async () => {
    const res = await post(
      '/finance/deals/create',
      '{"dealname":"x","totalamount":600000,"deposit":60000,"monthly":1e-7,"months":12}',
    );
    expect(res.status).toBe(400);
  });

  // FIXED BUG 8: GET /finance/users?x=<20,000 characters> → 431 with Fastify's body
  // {"error":"Request Header Fields Too Large","message":"Exceeded maximum allowed HTTP header size","statusCode":431}, not {message}.
  it(
    'fixed bug 8: a request line over 16 kB is refused with a body that is exactly {message}',
    async () => {
      const res = await t.http.get(`/finance/users?x=${'a'.repeat(20_000)}`).set('x-access-token', admin);
      expect({ status: res.status, isMessage: isMessageBody(res.body) }).toEqual({
        status: 431,
        isMessage: true,
      });
    },
  );

  // FIXED BUG 9: POST /finance/deals/create {…a valid deal…, "constructor": 1} → 201, the deal is created:
  // class-transformer skips keys naming Object.prototype methods (constructor, toString, valueOf, hasOwnProperty, …),
  // so forbidNonWhitelisted never sees them (DESIGN part 4: unknown fields are refused with 400).
  it(
    'fixed bug 9: an unknown "constructor" key is refused with 400 and nothing is stored',
    async () => {
      const before = await rowCounts(t);
      const res = await post(
        '/finance/deals/create',
        '{"dealname":"Constructor deal","totalamount":600000,"deposit":60000,"monthly":45000,"months":12,"constructor":1}',
      );
      expect({ status: res.status, deals: (await rowCounts(t)).deals }).toEqual({
        status: 400,
        deals: before.deals,
      });
    },
  );

  // FIXED BUG 10: GET /finance/customers/<201 × "x"> → 414 with the router's own body
  // {"statusCode":414,"code":"FST_ERR_MAX_PARAM_LENGTH","error":"URI Too Long","message":"'/finance/customers/xxx…' is too long"},
  // not {message}, and before the token is even looked at.
  it(
    'fixed bug 10: an over-long path parameter is refused with a body that is exactly {message}',
    async () => {
      const res = await t.http.get(`/finance/customers/${'x'.repeat(201)}`).set('x-access-token', admin);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { message: 'A path parameter is longer than 200 characters.' },
      });
    },
  );

  it('leaves the ledger as the payments imply (npm run ledger:verify exits 0)', async () => {
    await expectLedgerConsistent(t);
    expect(await runLedgerVerify(t.databaseUrl)).toEqual({ code: 0, out: expect.stringContaining('"differences":0') });
  });
});
