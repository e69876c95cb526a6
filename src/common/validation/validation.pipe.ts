import { ArgumentMetadata, BadRequestException, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';

/** "amount must be a positive number; customerid must be an integer": one message naming every bad field. */
export function describeValidationErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) =>
      parent && text.startsWith(`${error.property} `) ? `${parent}.${text}` : text,
    );
    return [...own, ...describeValidationErrors(error.children ?? [], path)];
  });
}

/** Deeper than any request of this interface (the deepest, the provider's callback, has 2 levels). */
export const MAX_INPUT_DEPTH = 32;

/** Names Object.prototype carries: class-transformer skips such keys silently, so they are refused here. */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Looks at raw input (a body, a query, a path parameter) before anything copies it, without recursion:
 * refuses nesting deeper than MAX_INPUT_DEPTH (it would overflow class-transformer's stack), keys that
 * name Object.prototype members (constructor, toString, …), and text PostgreSQL or the provider cannot
 * take: the NUL character and lone UTF-16 surrogates. Returns the first problem, or undefined.
 */
export function screenInput(value: unknown, root = '', options: { depthOnly?: boolean } = {}): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    if (typeof current === 'string') {
      if (options.depthOnly) continue;
      const problem = textProblem(current);
      if (problem) return `${path || 'value'} ${problem}`;
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return `Request is nested more than ${MAX_INPUT_DEPTH} levels deep.`;
    for (const [key, child] of Object.entries(current)) {
      const at = Array.isArray(current) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (!Array.isArray(current) && !options.depthOnly) {
        if (PROTOTYPE_NAMES.has(key)) return `property ${at} should not exist`;
        const problem = textProblem(key);
        if (problem) return `a property name ${problem}`;
      }
      stack.push({ value: child, path: at, depth: depth + 1 });
    }
  }
  return undefined;
}

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character';
  if (!text.isWellFormed()) return 'must be well-formed Unicode text (a lone surrogate was found)';
  return undefined;
}

const IGNORES_UNKNOWN_FIELDS = Symbol('ignoresUnknownFields');

/**
 * For a webhook's body (the mobile-money callback): fields it does not know are dropped instead of
 * refused, so the day a provider adds `msisdn` or `timestamp` its payments keep arriving. The fields
 * the class declares are validated as strictly as anywhere else.
 */
export function IgnoreUnknownFields(): ClassDecorator {
  return (target) => Reflect.defineMetadata(IGNORES_UNKNOWN_FIELDS, true, target);
}

export const ignoresUnknownFields = (target: object): boolean => Boolean(Reflect.getMetadata(IGNORES_UNKNOWN_FIELDS, target));

const validationOptions = (forbidUnknownFields: boolean) => ({
  whitelist: true,
  forbidNonWhitelisted: forbidUnknownFields,
  forbidUnknownValues: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  validationError: { target: false, value: false },
  stopAtFirstError: false,
  exceptionFactory: (errors: ValidationError[]) => new BadRequestException(describeValidationErrors(errors).join('; ')),
});

/**
 * Strict request validation: unknown fields are refused (no mass assignment; a body class marked
 * @IgnoreUnknownFields drops them instead), types are not coerced ("5" is not an integer), and a
 * body that is not a JSON object is refused before any field is looked at.
 */
export class StrictValidationPipe extends ValidationPipe {
  private readonly lenient = new ValidationPipe(validationOptions(false));

  constructor() {
    super(validationOptions(true));
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const webhook = metadata.type === 'body' && metadata.metatype !== undefined && ignoresUnknownFields(metadata.metatype);
    if (metadata.type === 'body' || metadata.type === 'query' || metadata.type === 'param') {
      // a webhook's unknown fields are dropped, not refused, whatever text they hold: only its depth is screened before they go
      const problem = screenInput(value, metadata.type === 'param' ? (metadata.data ?? '') : '', { depthOnly: webhook });
      if (problem) throw new BadRequestException(problem);
    }
    if (metadata.type === 'body' && metadata.metatype && this.toValidate(metadata)) {
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new BadRequestException('Request body must be a JSON object.');
      }
    }
    if (webhook) {
      const known = (await this.lenient.transform(value, metadata)) as unknown;
      const problem = screenInput(known);
      if (problem) throw new BadRequestException(problem);
      return known;
    }
    return super.transform(value, metadata);
  }
}

/**
 * For a POST that takes no fields: no body or `{}` passes; anything else is refused like an
 * unknown field would be, so a client sending the wrong body learns of it instead of being ignored.
 */
export class EmptyBodyPipe implements PipeTransform<unknown, Record<string, never>> {
  transform(value: unknown): Record<string, never> {
    if (value === undefined) return {};
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new BadRequestException('Request body must be a JSON object.');
    const keys = Object.keys(value);
    if (keys.length > 0) throw new BadRequestException(keys.map((key) => `property ${key} should not exist`).join('; '));
    return {};
  }
}
