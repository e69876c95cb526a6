import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { isValidDate } from '../time/business-date.js';

export const MAX_AMOUNT = 1_000_000_000;

/** The largest record id: ids are PostgreSQL `integer` columns. */
export const MAX_ID = 2_147_483_647;

/** How the document types an id wherever one is taken (bodies, queries, paths). */
export const ID_SCHEMA = { type: 'integer', format: 'int32', minimum: 1, maximum: MAX_ID } as const;

interface FieldOptions {
  description?: string;
  example?: unknown;
  optional?: boolean;
}

const doc = (options: FieldOptions, extra: Record<string, unknown>) =>
  options.optional
    ? ApiPropertyOptional({ description: options.description, example: options.example, ...extra })
    : ApiProperty({ description: options.description, example: options.example, ...extra });

const optional = (options: FieldOptions) => (options.optional ? [IsOptional()] : []);

/**
 * A finite JSON number written with at most 2 decimals. Read through its shortest decimal form, so
 * 0.1 passes and 1e-7 or 0.005 do not (class-validator's maxDecimalPlaces throws on exponent forms).
 */
export function isMoneyNumber(value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  const written = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!written) return false;
  const [, fraction = '', exponent = '0'] = written;
  return fraction.length - Number(exponent) <= 2;
}

/** An amount of money: a JSON number > 0 and ≤ 1,000,000,000 with at most 2 decimals. */
export function MoneyField(options: FieldOptions & { allowZero?: boolean } = {}) {
  return applyDecorators(
    // multipleOf 0.01 is the schema's way of saying "at most 2 decimals".
    doc(options, { type: 'number', minimum: options.allowZero ? 0 : 0.01, maximum: MAX_AMOUNT, multipleOf: 0.01, example: options.example ?? 1500 }),
    ...optional(options),
    ValidateBy({
      name: 'isMoney',
      validator: {
        validate: isMoneyNumber,
        defaultMessage: (args) => `${args?.property} must be a number with at most 2 decimal places`,
      },
    }),
    Min(options.allowZero ? 0 : 0.01, { message: ({ property }) => (options.allowZero ? `${property} must not be negative` : `${property} must be a positive number`) }),
    Max(MAX_AMOUNT, { message: ({ property }) => `${property} must not exceed ${MAX_AMOUNT}` }),
  );
}

/** A record id: a JSON integer from 1 to 2,147,483,647 (no strings, no coercion). */
export function IdField(options: FieldOptions = {}) {
  return applyDecorators(doc(options, { ...ID_SCHEMA, example: options.example ?? 1 }), ...optional(options), IsInt(), Min(1), Max(MAX_ID));
}

const isInt32 = (n: number) => n >= -MAX_ID - 1 && n <= MAX_ID;

/** A whole number within bounds. */
export function IntField(min: number, max: number, options: FieldOptions = {}) {
  const format = isInt32(min) && isInt32(max) ? { format: 'int32' } : {};
  return applyDecorators(doc(options, { type: 'integer', ...format, minimum: min, maximum: max }), ...optional(options), IsInt(), Min(min), Max(max));
}

/** Free text: a string, trimmed, not empty (unless `allowEmpty`), at most `max` characters (255 by default). */
export function TextField(options: FieldOptions & { max?: number; pattern?: RegExp; patternMessage?: string; allowEmpty?: boolean } = {}) {
  const max = options.max ?? 255;
  // Flags cannot be written in a schema's pattern: such a rule stays in the validator only.
  // A blank value is refused after trimming: `\S` (some character that is not a space) says so when no pattern does.
  const pattern = options.pattern ? (options.pattern.flags ? {} : { pattern: options.pattern.source }) : options.allowEmpty ? {} : { pattern: '\\S' };
  return applyDecorators(
    doc(options, { type: String, ...(options.allowEmpty ? {} : { minLength: 1 }), maxLength: max, ...pattern }),
    ...optional(options),
    Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)),
    IsString(),
    ...(options.allowEmpty ? [] : [IsNotEmpty()]),
    MaxLength(max),
    ...(options.pattern ? [Matches(options.pattern, { message: options.patternMessage ?? `$property has an invalid format` })] : []),
  );
}

/** One of a fixed set of values. */
export function EnumField(values: readonly string[], options: FieldOptions = {}) {
  return applyDecorators(doc(options, { type: 'string', enum: values }), ...optional(options), IsIn(values, { message: ({ property }) => `${property} must be one of ${values.join(', ')}` }));
}

/** A calendar date written YYYY-MM-DD. */
export function DateField(options: FieldOptions = {}) {
  return applyDecorators(
    doc(options, { type: String, format: 'date', example: options.example ?? '2026-01-31' }),
    ...optional(options),
    ValidateBy({
      name: 'isCalendarDate',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isValidDate(value),
        defaultMessage: (args) => `${args?.property} must be a real calendar date written YYYY-MM-DD`,
      },
    }),
  );
}
