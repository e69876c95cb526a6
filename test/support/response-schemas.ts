import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TestApp } from './test-app.js';

type Json = Record<string, unknown>;
interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/**
 * The document's OpenAPI 3.0 schema as JSON Schema, strict the way a contract-testing tool reads it:
 * `nullable` becomes "or null", and an object that lists its properties allows no other.
 */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref') out.$ref = (value as string).replace('#/components/schemas/', 'components#/components/schemas/');
    else if (key === 'properties') out.properties = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, strict(v)]));
    else if (key !== 'nullable' && key !== 'example' && key !== 'examples' && key !== 'description') out[key] = strict(value);
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  if ((schema as Json).nullable) {
    const { enum: values, ...rest } = out;
    const notNull = values ? { ...rest, enum: (values as unknown[]).filter((v) => v !== null) } : rest;
    return { anyOf: [{ type: 'null' }, notNull] };
  }
  return out;
}

/** Matches a concrete path (`/finance/customers/12`) to the document's (`/finance/customers/{customerid}`). */
function templateOf(doc: OpenApi, path: string): string | undefined {
  if (doc.paths[path]) return path;
  return Object.keys(doc.paths).find((template) => new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(path));
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** Ratios, not amounts: they may carry more than 2 decimals. */
const RATIOS = new Set(['rate', 'par30']);

/**
 * DESIGN part 4a, which a schema of `type: string` / `type: number` does not say: dates are
 * `YYYY-MM-DD`, times ISO 8601, amounts at most 2 decimals.
 */
function recordProblems(at: string, value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => recordProblems(at, v, `${path}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  const found: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const where = `${at}: ${path}/${key}`;
    if (typeof v === 'string' && /date$/.test(key) && !DAY.test(v)) found.push(`${where} ${JSON.stringify(v)} is not YYYY-MM-DD`);
    if (typeof v === 'string' && /(at|until)$/.test(key) && !INSTANT.test(v)) found.push(`${where} ${JSON.stringify(v)} is not an ISO 8601 time`);
    if (typeof v === 'number' && !RATIOS.has(key) && !Number.isInteger(Math.round(v * 100 * 1e6) / 1e6)) found.push(`${where} ${v} has more than 2 decimals`);
    found.push(...recordProblems(at, v, `${path}/${key}`));
  }
  return found;
}

export interface ResponseCheck {
  /** Every way the answer differs from the document: an undocumented status, a missing or extra field, a wrong type. */
  problems(method: string, url: string, status: number, body: unknown, contentType?: string): string[];
}

/** Reads the document the running service serves, and checks answers against it. */
export async function responseChecker(t: TestApp): Promise<ResponseCheck> {
  const doc = (await t.http.get('/docs-json').expect(200)).body as OpenApi;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'components', components: { schemas: strict(doc.components.schemas) } });
  const compiled = new Map<string, ValidateFunction>();
  return {
    problems(method, url, status, body, contentType) {
      const path = url.split('?')[0];
      const template = templateOf(doc, path);
      const at = `${method} ${template ?? path} → ${status}`;
      const operation = template ? doc.paths[template][method.toLowerCase()] : undefined;
      if (!operation || !HTTP_METHODS.has(method.toLowerCase())) return [`${at}: operation not documented`];
      const response = operation.responses?.[String(status)];
      if (!response) return [`${at}: status not documented (documented: ${Object.keys(operation.responses ?? {}).join(', ')})`];
      const media = Object.keys(response.content ?? {});
      if (contentType && !media.some((m) => contentType.startsWith(m))) return [`${at}: content type ${contentType}, documented ${media.join(', ') || 'none'}`];
      const schema = response.content?.['application/json']?.schema;
      if (!schema) return [];
      const key = `${method} ${template} ${status}`;
      if (!compiled.has(key)) compiled.set(key, ajv.compile(strict(schema) as Json));
      const validate = compiled.get(key)!;
      if (validate(body)) return recordProblems(at, body);
      return (validate.errors ?? []).map((e) => `${at}: ${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` '${String(e.params.additionalProperty)}'` : ''}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`);
    },
  };
}
