import { EnumValue, stringEnum } from '../types/string-enum.js';

/**
 * What kind of failure an error is, independent of transport. The HTTP edge maps each kind to a
 * status exactly once (see http-error.ts); services and domain code never think in status codes.
 */
export const ErrorKind = stringEnum('INVALID', 'UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'RATE_LIMITED', 'UPSTREAM_FAILED', 'UNAVAILABLE');
export type ErrorKind = EnumValue<typeof ErrorKind>;

/** An expected business failure: carries a kind (for the status), a code (for logs and tests) and the client message. */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (code: string, message: string) => new DomainError(ErrorKind.NOT_FOUND, code, message);
export const conflict = (code: string, message: string) => new DomainError(ErrorKind.CONFLICT, code, message);
export const invalid = (code: string, message: string) => new DomainError(ErrorKind.INVALID, code, message);
export const tooLarge = (code: string, message: string) => new DomainError(ErrorKind.TOO_LARGE, code, message);
