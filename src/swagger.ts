import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject, ServerObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import { errorResponseObject, JSON_BODY_ERRORS } from './common/http/endpoint.decorator.js';
import { ignoresUnknownFields } from './common/validation/validation.pipe.js';
import { AppConfig } from './config/app-config.js';

/** Every tag a controller uses, with what it covers (a tag used without an entry here fails test/openapi.e2e-spec.ts). */
export const TAGS: Record<string, string> = {
  Authentication: 'Sign in with a staff username and password to get the token every `/finance/` route needs.',
  Users: 'Staff accounts and their roles (ADMIN only).',
  Deals: 'The catalogue of financing deals: price, deposit, monthly instalment and term.',
  Customers: 'Registering customers on a deal, their sales stage, approval and bonus days, finding and listing them.',
  Accounts: 'A customer’s account and the state of their deal.',
  Payments: 'Cash payments loaded by operators, a customer’s recent payments, and reconciling a reference.',
  'Mobile money': 'Payment notifications from the mobile-money provider, look-ups of its transactions, and payments waiting for an operator.',
  'Device / PAYG': 'Locking and unlocking financed devices through the device-lock platform, and the commands sent to it.',
  Contracts: 'Repossession of a customer’s device and deal.',
  Inventory: 'Devices in stock and every movement of that stock.',
  Collections: 'Calls to customers behind on their instalments: generating, assigning and recording them.',
  Reports: 'Portfolio figures for management and investors.',
  Feedback: 'What customers told the staff.',
  Messages: 'SMS to customers (receipts, reminders, lock and paid-off notices, operators’ own), their delivery state, customers’ language and opt-out, and the gateway’s delivery reports.',
  Imports: 'Bring a book in: CSV files of customers (with their deal and what they paid so far) or payments, validated row by row, applied all or nothing in the background.',
  Exports: 'Take data out: CSV files streamed from the database (customers, payments, collection calls, the portfolio as a loan tape).',
  History: 'The audit log: who changed what and when (ADMIN only).',
  'Web client': 'Settings the back-office web client served at `/` needs before sign-in.',
  Operations: 'Health of the service and its dependencies, for monitoring.',
};

const PRODUCTION_NOTE = 'Production: operations affect real customer accounts and devices';

/**
 * The first server is the one serving the page (Swagger UI's "Try it out" uses it), so a developer's
 * machine or the UAT deployment never sends requests to production by default. This environment's
 * public address comes next, then the other environment's.
 */
export function openApiServers(config: AppConfig): ServerObject[] {
  const production = { url: config.servers.production, description: PRODUCTION_NOTE };
  const uat = { url: config.servers.uat, description: 'UAT sandbox' };
  return [{ url: '/', description: `This deployment (${config.env})` }, ...(config.env === 'production' ? [production, uat] : [uat, production])];
}

export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('PAYG device financing service')
    .setDescription(
      [
        'Back office of a pay-as-you-go device-financing business: customers, deals, payments and mobile money, device locking, contracts, inventory, collections.',
        'Every `/finance/` route needs the JWT from `POST /api/auth/signin` in the header `x-access-token`. Tokens last 24 hours and belong to one environment.',
        'Every error body is `{"message": string}`. Amounts are JSON numbers with at most 2 decimals, in ' + config.currency + '. Dates are `YYYY-MM-DD`.',
        'Request bodies are refused with 400 when they carry a field the route does not know, except the mobile-money notification, which ignores such fields.',
      ].join('\n\n'),
    )
    .setVersion('2.0.0')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-access-token', description: 'JWT from POST /api/auth/signin' }, 'x-access-token');
  for (const [name, description] of Object.entries(TAGS)) builder.addTag(name, description);
  for (const server of openApiServers(config)) builder.addServer(server.url, server.description);
  const document = SwaggerModule.createDocument(app, builder.build());
  // The package is UNLICENSED: no licence is granted, and there is no licence text to link to.
  document.info.license = { name: 'Proprietary (UNLICENSED): no licence is granted to use, copy or distribute this service' };
  documentValidationRules(document);
  closeRequestBodies(document);
  declareOpenOperations(document);
  documentBodyParserErrors(document);
  forEachSchema(document, includeNullInNullableEnum);
  return document;
}

export function setUpSwagger(app: INestApplication, config: AppConfig): void {
  const document = buildOpenApiDocument(app, config);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', customSiteTitle: 'PAYG service API' });
}

type Schema = SchemaObject & { [key: string]: unknown };
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;
const INT32_MAX = 2_147_483_647;
const INT32_MIN = -INT32_MAX - 1;

const isReference = (value: unknown): value is ReferenceObject => typeof value === 'object' && value !== null && '$ref' in value;
const schemaName = (ref: ReferenceObject) => ref.$ref.replace('#/components/schemas/', '');

function operations(document: OpenAPIObject) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({ key: `${method} ${path}`, operation: item[method]! })),
  );
}

/**
 * Writes into each request schema the rules its class-validator decorators enforce and a schema can
 * express (integer, bounds, lengths, not empty, pattern, enum), so the document cannot say less than
 * the validator even where a DTO's @ApiProperty forgot one.
 */
/** The validated request classes by name (the document names their schemas after them). */
function requestClasses(): Map<string, new () => unknown> {
  const classes = new Map<string, new () => unknown>();
  // class-validator keeps its metadata per class; it offers no public list of the classes.
  for (const target of (getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, unknown> }).validationMetadatas.keys()) {
    if (typeof target === 'function' && target.name) classes.set(target.name, target as new () => unknown);
  }
  return classes;
}

function documentValidationRules(document: OpenAPIObject): void {
  const storage = getMetadataStorage();
  const classes = requestClasses();
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    const target = classes.get(name);
    if (!target || isReference(schema) || !schema.properties) continue;
    for (const rule of storage.getTargetValidationMetadatas(target, '', true, false)) {
      const property = schema.properties[rule.propertyName];
      if (!property || isReference(property) || rule.each || rule.groups?.length) continue;
      applyRule(property as Schema, rule.name, rule.constraints ?? []);
    }
  }
}

/** class-validator's bound rules and the schema keyword each one sets. */
const BOUND_OF = { min: 'minimum', max: 'maximum', minLength: 'minLength', maxLength: 'maxLength' } as const;

function applyRule(property: Schema, rule: string | undefined, constraints: unknown[]): void {
  const [first, second] = constraints;
  switch (rule) {
    case 'isInt': {
      property.type = 'integer';
      break;
    }
    case 'min':
    case 'max':
    case 'minLength':
    case 'maxLength':
      property[BOUND_OF[rule]] = first as number;
      break;
    case 'isLength':
      if (typeof first === 'number') property.minLength = first;
      if (typeof second === 'number') property.maxLength = second;
      break;
    case 'isNotEmpty':
      if (property.type === 'string') property.minLength = Math.max(property.minLength ?? 0, 1);
      break;
    case 'matches': {
      // A flag (i, u, s…) cannot be written in a schema's pattern: that rule stays in the validator only.
      const flags = first instanceof RegExp ? first.flags : ((second as string | undefined) ?? '');
      if (!flags) property.pattern = first instanceof RegExp ? first.source : String(first);
      break;
    }
    case 'isIn':
      property.enum ??= [...(first as unknown[])];
      break;
  }
  if (property.type === 'integer' && typeof property.minimum === 'number' && typeof property.maximum === 'number') {
    if (property.minimum >= INT32_MIN && property.maximum <= INT32_MAX) property.format ??= 'int32';
  }
}

/**
 * The service refuses unknown fields (400), so every request schema says `additionalProperties: false`,
 * except the classes marked @IgnoreUnknownFields (the provider's notification is a webhook: a provider
 * that adds a field must not lose every payment, DESIGN part 6).
 */
function closeRequestBodies(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const classes = requestClasses();
  const closed = new Set<string>();
  const collect = (schema: SchemaObject | ReferenceObject | undefined, into: Set<string>) => {
    if (!schema) return;
    if (isReference(schema)) {
      const name = schemaName(schema);
      if (into.has(name)) return;
      into.add(name);
      collect(schemas[name], into);
      return;
    }
    for (const child of [...Object.values(schema.properties ?? {}), schema.items, ...(schema.allOf ?? [])]) collect(child, into);
  };
  for (const { operation } of operations(document)) {
    const body = operation.requestBody;
    if (!body || isReference(body)) continue;
    const schema = body.content['application/json']?.schema;
    collect(schema, closed);
  }
  for (const name of closed) {
    const schema = schemas[name];
    const target = classes.get(name);
    if (target && ignoresUnknownFields(target)) continue;
    if (schema && !isReference(schema) && schema.type === 'object') schema.additionalProperties = false;
  }
}

/** Operations without a security requirement of their own (sign-in, health) are open: the document says so with `security: []`. */
function declareOpenOperations(document: OpenAPIObject): void {
  for (const { operation } of operations(document)) operation.security ??= [];
}

/**
 * A route that reads a JSON body answers 413 (over 100 kB) and 415 (another content type) from the
 * body parser, before its handler runs: the document says so on every such route.
 */
function documentBodyParserErrors(document: OpenAPIObject): void {
  for (const { operation } of operations(document)) {
    const body = operation.requestBody;
    if (!body || isReference(body) || !body.content['application/json']) continue;
    for (const code of JSON_BODY_ERRORS) operation.responses[String(code)] ??= errorResponseObject(code);
  }
}

/** In OpenAPI 3.0 `nullable` does not widen `enum`: a nullable enum must list null itself. */
function includeNullInNullableEnum(schema: Schema): void {
  if (schema.nullable && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
}

/** Calls `visit` on every schema of the document: components, parameters, bodies, responses, nested ones. */
function forEachSchema(document: OpenAPIObject, visit: (schema: Schema) => void): void {
  const walk = (schema: SchemaObject | ReferenceObject | undefined) => {
    if (!schema || isReference(schema)) return;
    visit(schema as Schema);
    for (const child of [
      ...Object.values(schema.properties ?? {}),
      schema.items,
      ...(schema.allOf ?? []),
      ...(schema.oneOf ?? []),
      ...(schema.anyOf ?? []),
      typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined,
    ])
      walk(child);
  };
  for (const schema of Object.values(document.components?.schemas ?? {})) walk(schema);
  for (const { operation } of operations(document)) {
    for (const parameter of operation.parameters ?? []) if (!isReference(parameter)) walk(parameter.schema);
    if (operation.requestBody && !isReference(operation.requestBody)) for (const media of Object.values(operation.requestBody.content)) walk(media.schema);
    for (const response of Object.values(operation.responses ?? {})) {
      if (response && !isReference(response)) for (const media of Object.values(response.content ?? {})) walk(media.schema);
    }
  }
}
