import { applyDecorators, HttpCode, HttpStatus, Type } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiProperty, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { Public, Roles } from '../auth/auth.decorators.js';
import { Role } from '../auth/role.js';

export class ErrorResponse {
  @ApiProperty({ example: 'Customer 42 not found.' })
  message: string;
}

const ERROR_TEXT: Record<number, { description: string; example: string }> = {
  400: { description: 'Invalid request: the message names every bad field.', example: 'amount must be a positive number; customerid must be an integer' },
  401: { description: 'Token absent, expired or invalid.', example: 'No token provided.' },
  403: { description: 'The caller’s role may not use this route.', example: 'Forbidden.' },
  404: { description: 'A record named in the request does not exist.', example: 'Customer 42 not found.' },
  409: { description: 'The request conflicts with the current state.', example: 'Reference MP-1 is already used by another payment.' },
  413: { description: 'Body too large: over 100 kB (an import file: over IMPORT_MAX_MB).', example: 'Request body is larger than the 100 kB limit.' },
  415: { description: 'The body is not of the content type the route reads (application/json; multipart/form-data for an import).', example: 'Unsupported Content-Type: send application/json.' },
  429: { description: 'Rate limited.', example: 'Too many requests. Try again in a minute.' },
  500: { description: 'An unexpected failure: no detail is given.', example: 'Internal server error.' },
  502: { description: 'An outside platform failed.', example: 'Mobile-money provider failed: HTTP 500.' },
  503: {
    description: 'The database is not answering (try again shortly), or an outside platform the route needs is not configured.',
    example: 'Service temporarily unavailable: the database is not answering. Try again shortly.',
  },
};

/** The statuses any route with a JSON body can answer before its handler runs: the body parser's. */
export const JSON_BODY_ERRORS = [413, 415] as const;

/** An error answer as the OpenAPI document writes it (for answers added after the decorators ran). */
export function errorResponseObject(code: number) {
  return {
    description: ERROR_TEXT[code]?.description ?? 'Error.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' }, example: { message: ERROR_TEXT[code]?.example ?? 'Error.' } } },
  };
}

export interface EndpointOptions {
  summary: string;
  description?: string;
  /** Roles that may call it besides ADMIN; `'public'` for the few open routes. */
  roles: Role[] | 'public';
  /** 201 for routes that create a record, else 200. */
  status?: HttpStatus.OK | HttpStatus.CREATED;
  response?: Type<unknown> | [Type<unknown>];
  responseDescription?: string;
  /** A success answer that is a file of this media type instead of JSON (an export's CSV). */
  produces?: 'text/csv';
  /** Error statuses besides the 400/401/403/500/503 every protected route can answer. */
  errors?: number[];
  /** False for the few routes that answer without the database (they cannot answer 503 for it). */
  database?: false;
  body?: Type<unknown>;
}

/**
 * A handler decorator that holds the handler to the answer it documents: a handler whose return type
 * lacks a field of the documented response does not compile.
 */
export type HandlerOf<R> = <F extends (...args: never[]) => R | Promise<R>>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<F>,
) => void;

/** One line per route: access rule, status code, and the OpenAPI operation with its answers. */
export function Endpoint<R>(options: EndpointOptions & { response: [Type<R>] }): HandlerOf<R[]>;
export function Endpoint<R>(options: EndpointOptions & { response: Type<R> }): HandlerOf<R>;
export function Endpoint(options: EndpointOptions): HandlerOf<unknown>;
export function Endpoint(options: EndpointOptions): HandlerOf<unknown> {
  const isPublic = options.roles === 'public';
  const status = options.status ?? HttpStatus.OK;
  // 500 on any route; 503 wherever the database is read (the token's user is, on every protected route)
  const unavailable = options.database === false ? [] : [503];
  const errorStatuses = [...new Set([...(isPublic ? [] : [401, 403]), 400, ...(options.errors ?? []), 500, ...unavailable])].sort();
  const access = isPublic ? 'Open: no token needed.' : `Roles: ${['ADMIN', ...(options.roles as Role[])].join(', ')}.`;
  const response = options.response;
  return applyDecorators(
    isPublic ? Public() : Roles(...(options.roles as Role[])),
    HttpCode(status),
    ApiOperation({ summary: options.summary, description: [options.description, access].filter(Boolean).join('\n\n') }),
    ...(isPublic ? [] : [ApiSecurity('x-access-token')]),
    ...(options.body ? [ApiBody({ type: options.body })] : []),
    ApiResponse({
      status,
      description: options.responseDescription ?? (options.produces ? `The file (${options.produces}), sent as an attachment.` : status === HttpStatus.CREATED ? 'Created.' : 'Success.'),
      ...(response ? { type: Array.isArray(response) ? response[0] : response, isArray: Array.isArray(response) } : {}),
      ...(options.produces ? { content: { [options.produces]: { schema: { type: 'string' } } } } : {}),
    }),
    ...errorStatuses.map((code) =>
      ApiResponse({
        status: code,
        description: ERROR_TEXT[code]?.description ?? 'Error.',
        type: ErrorResponse,
        example: { message: ERROR_TEXT[code]?.example ?? 'Error.' },
      }),
    ),
  );
}
