import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { isValidDate } from '../time/business-date.js';

export const MAX_AMOUNT = 1_000_000_000;

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
    doc(options, { type: Number, minimum: options.allowZero ? 0 : 0.01, maximum: MAX_AMOUNT, example: options.example ?? 1500 }),
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

/** A record id: a JSON integer ≥ 1 (no strings, no coercion). */
export function IdField(options: FieldOptions = {}) {
  return applyDecorators(doc(options, { type: Number, minimum: 1, example: options.example ?? 1 }), ...optional(options), IsInt(), Min(1), Max(2_147_483_647));
}

/** A whole number within bounds. */
export function IntField(min: number, max: number, options: FieldOptions = {}) {
  return applyDecorators(doc(options, { type: Number, minimum: min, maximum: max }), ...optional(options), IsInt(), Min(min), Max(max));
}

/** Free text: a string, trimmed, not empty (unless `allowEmpty`), at most `max` characters (255 by default). */
export function TextField(options: FieldOptions & { max?: number; pattern?: RegExp; patternMessage?: string; allowEmpty?: boolean } = {}) {
  const max = options.max ?? 255;
  return applyDecorators(
    doc(options, { type: String, maxLength: max }),
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
  return applyDecorators(doc(options, { enum: values }), ...optional(options), IsIn(values, { message: ({ property }) => `${property} must be one of ${values.join(', ')}` }));
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
