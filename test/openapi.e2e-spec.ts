import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, TestApp } from './support/test-app.js';

const run = promisify(execFile);
const BIN = resolve('node_modules/.bin');
const INT32_MAX = 2_147_483_647;
const WEBHOOK = 'post /finance/amlogs/callback';
/** The SMS gateway's delivery reports: a webhook too (open to fields it does not use), behind its own key. */
const SMS_WEBHOOK = 'post /sms/delivery-reports';
const WEBHOOKS = [WEBHOOK, SMS_WEBHOOK];
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/** Ids that are the provider's text, not records of this service. */
const TEXT_IDS = new Set(['CallbackTransaction.id', 'AssignRequest.transactionid', 'DeliveryReportRequest.id']);

interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  additionalProperties?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  $ref?: string;
}
interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface OpenApi {
  info: { license?: { name?: string } };
  servers: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const operationsOf = (doc: OpenApi) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ key: `${method} ${path}`, operation })),
  );

/** Every object schema a request body is made of, by name, with the operation it belongs to. */
function requestSchemas(doc: OpenApi): { key: string; name: string; schema: Schema }[] {
  const found: { key: string; name: string; schema: Schema }[] = [];
  const visit = (key: string, schema: Schema | undefined, seen: Set<string>) => {
    if (!schema) return;
    if (schema.$ref) {
      const name = schema.$ref.split('/').pop()!;
      if (seen.has(name)) return;
      seen.add(name);
      found.push({ key, name, schema: doc.components.schemas[name] });
      visit(key, doc.components.schemas[name], seen);
      return;
    }
    for (const child of [...Object.values(schema.properties ?? {}), schema.items, ...(schema.allOf ?? [])]) visit(key, child, seen);
  };
  for (const { key, operation } of operationsOf(doc)) visit(key, operation.requestBody?.content['application/json']?.schema, new Set());
  return found;
}

/** Runs a linter from node_modules/.bin; it exits non-zero when it finds errors, so the exit code is not the verdict. */
async function lint(args: string[], cwd: string): Promise<string> {
  try {
    return (await run(join(BIN, args[0]), args.slice(1), { cwd, timeout: 60_000, maxBuffer: 20 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    if (!stdout) throw new Error(`${args[0]} failed: ${stderr ?? String(error)}`);
    return stdout;
  }
}

describe('the OpenAPI document tells the truth', () => {
  let t: TestApp;
  let doc: OpenApi;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp();
    const res = await t.http.get('/docs-json');
    expect(res.status).toBe(200);
    doc = res.body as OpenApi;
    dir = mkdtempSync(join(tmpdir(), 'payg-openapi-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
    writeFileSync(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
  });

  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes Redocly’s recommended rules with no error', async () => {
    const out = await lint(['redocly', 'lint', '--extends', 'recommended', '--format', 'json', 'openapi.json'], dir);
    const report = JSON.parse(out) as { totals: { errors: number }; problems: { severity: string; ruleId: string; message: string; location?: { pointer?: string }[] }[] };
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location?.[0]?.pointer ?? ''}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 90_000);

  it('passes Spectral’s OpenAPI rules with no error', async () => {
    const out = await lint(['spectral', 'lint', '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet', 'openapi.json'], dir);
    const results = JSON.parse(out.trim() || '[]') as { severity: number; code: string; message: string; path: string[] }[];
    const errors = results.filter((r) => r.severity === 0).map((r) => `${r.code} ${r.path.join('.')}: ${r.message}`);
    expect(errors).toEqual([]);
  }, 90_000);

  it('types every id and paging value as a 32-bit integer the service accepts', () => {
    const ids: string[] = [];
    for (const { name, schema } of requestSchemas(doc)) {
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        if (/id$/.test(field) && !TEXT_IDS.has(`${name}.${field}`)) {
          ids.push(`${name}.${field}`);
          expect({ field: `${name}.${field}`, ...property }).toMatchObject({ type: 'integer', format: 'int32', minimum: 1, maximum: INT32_MAX });
        }
      }
    }
    for (const { key, operation } of operationsOf(doc)) {
      for (const p of operation.parameters ?? []) {
        if (p.name === 'page' || p.name === 'limit' || /id$/.test(p.name)) {
          ids.push(`${key} ${p.name}`);
          expect({ parameter: `${key} ${p.name}`, ...p.schema }).toMatchObject({ type: 'integer', format: 'int32', minimum: 1 });
          expect(p.schema.maximum).toBeLessThanOrEqual(INT32_MAX);
        }
      }
    }
    expect(ids).toEqual(expect.arrayContaining(['LoadPaymentRequest.customerid', 'UserIdRequest.id', 'get /finance/customers/{customerid} customerid', 'get /finance/users page']));
  });

  it('types every id and count an answer carries as an integer (the interface: "id: integer", "an integer count")', () => {
    const counts = new Set(['total', 'page', 'limit', 'months', 'quantity', 'bonusdays', 'attempts', 'PENDING', 'APPROVED', 'REPOSSESSED', 'CALLED', 'RESOLVED', 'LOCKED', 'UNLOCKED', 'PAID_OFF', 'opened', 'refreshed', 'daysoverdue', 'activedeals', 'repossesseddeals']);
    // a staff user's id, named for what the user did
    const users = new Set(['createdby', 'assignedto']);
    const found: string[] = [];
    const wrong: string[] = [];
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      if (!/Response$/.test(name)) continue;
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        if (!((/id$/.test(field) && !/paid$/.test(field)) || counts.has(field) || users.has(field)) || property.$ref || property.type === 'string' || property.type === 'array') continue;
        found.push(`${name}.${field}`);
        if (property.type !== 'integer') wrong.push(`${name}.${field}: ${property.type}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(found).toEqual(expect.arrayContaining(['SignInResponse.id', 'RegisterCustomerResponse.customerid', 'StatusSummaryResponse.PENDING', 'CallStatsResponse.RESOLVED', 'DealResponse.months', 'CallResponse.assignedto', 'FeedbackResponse.createdby', 'PortfolioResponse.activedeals']));
  });

  it('declares the format of every date and time an answer carries (DESIGN 4a: dates YYYY-MM-DD, times ISO 8601)', () => {
    const found: string[] = [];
    const wrong: string[] = [];
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      if (!/Response$/.test(name)) continue;
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        const format = /date$|^asof$|^today$/.test(field) ? 'date' : /at$|until$/.test(field) ? 'date-time' : undefined;
        if (!format || property.type !== 'string') continue;
        found.push(`${name}.${field}`);
        if (property.format !== format) wrong.push(`${name}.${field}: ${property.format ?? 'no format'}, not ${format}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(found).toEqual(expect.arrayContaining(['CustomerDealResponse.nextpaymentdate', 'PaymentResponse.createdat', 'CommandResponse.unlockuntil', 'AuditEntryResponse.at', 'PortfolioResponse.asof']));
  });

  it('bounds every request string, and says where an empty one is refused', () => {
    for (const { name, schema } of requestSchemas(doc)) {
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        if (property.type === 'string' && !property.enum && !property.format && !property.pattern?.startsWith('^')) {
          expect({ field: `${name}.${field}`, maxLength: property.maxLength }).toEqual({ field: `${name}.${field}`, maxLength: expect.any(Number) });
        }
      }
    }
    const { schemas } = doc.components;
    expect(schemas.LoadPaymentRequest.properties!.reference).toMatchObject({ minLength: 1, maxLength: 255 });
    expect(schemas.SignInRequest.properties!.username).toMatchObject({ minLength: 1, maxLength: 255 });
    expect(schemas.AddItemRequest.properties!.quantity).toMatchObject({ type: 'integer', minimum: 0 });
    expect(schemas.LoadPaymentRequest.properties!.amount).toMatchObject({ type: 'number', minimum: 0.01, maximum: 1_000_000_000, multipleOf: 0.01 });
    // a notification without a tag is kept for an operator: the empty tag is allowed
    expect(schemas.CallbackTransaction.properties!.tag.minLength).toBeUndefined();
  });

  it('closes every request body to unknown fields, except the webhooks’', () => {
    const schemas = requestSchemas(doc);
    const open = schemas.filter((s) => WEBHOOKS.includes(s.key)).map((s) => s.name);
    expect(open).toEqual(expect.arrayContaining(['CallbackRequest', 'CallbackTransaction', 'DeliveryReportRequest']));
    for (const { name, schema } of schemas.filter((s) => !WEBHOOKS.includes(s.key))) {
      expect({ name, additionalProperties: schema.additionalProperties }).toEqual({ name, additionalProperties: false });
    }
    for (const name of open) expect([undefined, true]).toContain(doc.components.schemas[name].additionalProperties);
  });

  it('marks the open routes with an empty security requirement and every other with the token', () => {
    for (const { key, operation } of operationsOf(doc)) {
      const open = ['post /api/auth/signin', 'get /health', 'get /api/client-config', SMS_WEBHOOK];
      const expected = open.includes(key) ? [] : [{ 'x-access-token': [] }];
      expect({ key, security: operation.security }).toEqual({ key, security: expected });
    }
  });

  it('lists null in the enum of every nullable enum', () => {
    const seen: string[] = [];
    const walk = (at: string, schema: Schema | undefined) => {
      if (!schema || schema.$ref) return;
      if (schema.nullable && schema.enum) {
        seen.push(at);
        expect({ at, hasNull: schema.enum.includes(null) }).toEqual({ at, hasNull: true });
      }
      for (const [k, v] of Object.entries(schema.properties ?? {})) walk(`${at}.${k}`, v);
      walk(`${at}[]`, schema.items);
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) walk(name, schema);
    expect(seen).toContain('CallResponse.resolution');
  });

  it('declares every tag it uses, with a description, and a licence', () => {
    const used = new Set(operationsOf(doc).flatMap(({ operation }) => operation.tags ?? []));
    const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
    for (const tag of used) expect({ tag, description: declared.get(tag) }).toEqual({ tag, description: expect.stringMatching(/\w/) });
    expect(doc.info.license?.name).toMatch(/UNLICENSED/);
  });

  it('sends "Try it out" to the deployment serving the page: UAT first, production after', () => {
    expect(doc.servers[0]).toEqual({ url: '/', description: 'This deployment (uat)' });
    expect(doc.servers.map((s) => s.url)).toEqual(['/', t.config.servers.uat, t.config.servers.production]);
  });

  it('on a production deployment, lists itself first and UAT after', async () => {
    const production = await startTestApp({ env: { APP_ENV: 'production' } });
    try {
      const res = await production.http.get('/docs-json');
      const servers = (res.body as OpenApi).servers;
      expect(servers[0]).toEqual({ url: '/', description: 'This deployment (production)' });
      expect(servers.map((s) => s.url)).toEqual(['/', production.config.servers.production, production.config.servers.uat]);
    } finally {
      await production.close();
    }
  });
});
