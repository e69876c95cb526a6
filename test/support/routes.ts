import type { TestApp } from './test-app.js';

/** What the service's own OpenAPI document (GET /docs-json) says about one operation. */
export interface DocumentedOperation {
  /** `POST /finance/payments/load`: method and the document's path (`{customerid}` for parameters). */
  key: string;
  method: string;
  path: string;
  /** The roles from the description's last line ("Roles: ADMIN, OPERATOR."), or 'public' ("Open: no token needed."). */
  roles: string[] | 'public';
  /** The request body's schema with every $ref resolved, when the operation takes one. */
  body?: Schema;
  parameters: { name: string; in: string; required?: boolean; schema: Schema }[];
}

export interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  example?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  $ref?: string;
}

type OpenApi = {
  paths: Record<
    string,
    Record<
      string,
      {
        description?: string;
        parameters?: DocumentedOperation['parameters'];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
};

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

function resolve(doc: OpenApi, schema: Schema | undefined, depth = 0): Schema | undefined {
  if (!schema || depth > 20) return schema;
  if (schema.$ref)
    return resolve(
      doc,
      doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')],
      depth + 1,
    );
  const out: Schema = { ...schema };
  if (schema.properties)
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, resolve(doc, v, depth + 1)!]),
    );
  if (schema.items) out.items = resolve(doc, schema.items, depth + 1);
  return out;
}

function rolesOf(description: string | undefined): string[] | 'public' {
  const last = (description ?? '').trim().split('\n').pop() ?? '';
  if (last.startsWith('Open:')) return 'public';
  const match = /^Roles: (.+)\.$/.exec(last);
  return match ? match[1].split(', ') : [];
}

/** Every operation of the document the running service serves at /docs-json. */
export async function documentedOperations(t: TestApp): Promise<DocumentedOperation[]> {
  const res = await t.http.get('/docs-json');
  if (res.status !== 200) throw new Error(`GET /docs-json answered ${res.status}`);
  const doc = res.body as OpenApi;
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, op]) => ({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        roles: rolesOf(op.description),
        body: resolve(doc, op.requestBody?.content?.['application/json']?.schema),
        parameters: (op.parameters ?? []).map((p) => ({ ...p, schema: resolve(doc, p.schema) ?? {} })),
      })),
  );
}

/** The tables whose row counts must not move when a request is refused (the audit log is left out). */
export const MAIN_TABLES = [
  'users',
  'accounts',
  'customers',
  'customer_deals',
  'payments',
  'deals',
  'mobile_money_transactions',
  'device_commands',
  'bonus_grants',
] as const;

export async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const [row] = await t.db.query(
    `SELECT ${MAIN_TABLES.map((name) => `(SELECT count(*)::int FROM ${name}) AS ${name}`).join(', ')}`,
  );
  return row as Record<string, number>;
}

/** True when a response body is exactly `{message: string}` and nothing else. */
export function isMessageBody(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    Object.keys(body).length === 1 &&
    typeof (body as { message?: unknown }).message === 'string'
  );
}

/** `/finance/customers/{customerid}` with the values given. */
export function fillPath(path: string, values: Record<string, string | number>): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (!(name in values)) throw new Error(`no value for path parameter ${name} of ${path}`);
    return encodeURIComponent(String(values[name]));
  });
}
