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
  413: { description: 'Body over 100 kB.', example: 'Request body is larger than the 100 kB limit.' },
  429: { description: 'Rate limited.', example: 'Too many requests. Try again in a minute.' },
  502: { description: 'An outside platform failed.', example: 'Mobile-money provider failed: HTTP 500.' },
  503: { description: 'A dependency is unavailable or not configured.', example: 'Mobile-money provider is not configured.' },
};

export interface EndpointOptions {
  summary: string;
  description?: string;
  /** Roles that may call it besides ADMIN; `'public'` for the few open routes. */
  roles: Role[] | 'public';
  /** 201 for routes that create a record, else 200. */
  status?: HttpStatus.OK | HttpStatus.CREATED;
  response?: Type<unknown> | [Type<unknown>];
  responseDescription?: string;
  /** Error statuses besides the 400/401/403 every protected route can answer. */
  errors?: number[];
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
  const errorStatuses = [...new Set([...(isPublic ? [] : [401, 403]), 400, ...(options.errors ?? [])])].sort();
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
      description: options.responseDescription ?? (status === HttpStatus.CREATED ? 'Created.' : 'Success.'),
      ...(response ? { type: Array.isArray(response) ? response[0] : response, isArray: Array.isArray(response) } : {}),
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
