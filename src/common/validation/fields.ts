import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateBy } from 'class-validator';
import { allowedTextPattern, FREE_TEXT_FORBIDDEN, hasFreeTextForbidden, hasOneLineForbidden, ONE_LINE_FORBIDDEN, textLength } from '../identifiers/characters.js';
import { IMEI_INPUT, IMEI_INPUT_MAX_LENGTH, normaliseImei } from '../identifiers/imei.js';
import { normalisePayg, PAYG_INPUT, PAYG_MAX_LENGTH } from '../identifiers/payg.js';
import { TELEPHONE_INPUT, TELEPHONE_INPUT_MAX_LENGTH } from '../identifiers/telephone.js';
import { FIRST_DATE, isValidDate } from '../time/business-date.js';
import { MAX_AMOUNT } from '../money/money.js';


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

/** Query strings arrive as text: turn "2" into 2 and leave anything else for the validator to refuse. */
export const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value);

/**
 * Decorators in the order they would be stacked above a property. Stacked decorators apply bottom-up
 * and class-validator reports failures in the order they were applied, so a field made of these
 * keeps the message order it had when the decorators were written out.
 */
const stacked = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators.reverse());

/** A record id in a query string or path: "42" is read as 42, then 1 to 2,147,483,647 like IdField. */
export function QueryIdField(options: FieldOptions = {}) {
  return stacked(doc(options, { ...ID_SCHEMA, example: options.example ?? 1 }), ...optional(options), Transform(toInt), IsInt(), Min(1), Max(MAX_ID));
}

/**
 * At most `max` characters, counted as the varchar column and the schema's maxLength count them
 * (textLength). Named `maxLength` with the bound as its constraint, so the document states it.
 */
function MaxCharacters(max: number) {
  return ValidateBy({
    name: 'maxLength',
    constraints: [max],
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || textLength(value) <= max,
      defaultMessage: (args) => `${args?.property} must be shorter than or equal to ${max} characters`,
    },
  });
}

/** A listing's optional free search: trimmed, 1 to 100 characters. */
export function SearchField(options: Omit<FieldOptions, 'optional'> = {}) {
  return stacked(
    ApiPropertyOptional({ description: options.description, example: options.example, minLength: 1, maxLength: 100 }),
    IsOptional(),
    // names are stored in NFC (PersonNameField): so is what is looked for
    Transform(({ value }) => (typeof value === 'string' ? value.trim().normalize('NFC') : value)),
    IsString(),
    MinLength(1),
    MaxCharacters(100),
  );
}

const isInt32 = (n: number) => n >= -MAX_ID - 1 && n <= MAX_ID;

/** A whole number within bounds. */
export function IntField(min: number, max: number, options: FieldOptions = {}) {
  const format = isInt32(min) && isInt32(max) ? { format: 'int32' } : {};
  return applyDecorators(doc(options, { type: 'integer', ...format, minimum: min, maximum: max }), ...optional(options), IsInt(), Min(min), Max(max));
}

interface TextOptions extends FieldOptions {
  max?: number;
  allowEmpty?: boolean;
  /** One line: no tab or line break either (names, identifiers). Free text may hold tabs and line breaks. */
  oneLine?: boolean;
  /** A stricter shape, checked after trimming (it replaces the character pattern in the OpenAPI schema). */
  pattern?: RegExp;
  patternMessage?: string;
  /** Stored in Unicode NFC (a name typed or imported with decomposed accents is the same name), checked after. */
  nfc?: boolean;
}

/**
 * Free text: a string, trimmed, not empty (unless `allowEmpty`), at most `max` characters (255 by
 * default), without control characters other than tab and line breaks (`oneLine`: none at all).
 * A value holding a refused character is not trimmed first, so "x\v" is refused, not cut to "x".
 */
export function TextField(options: TextOptions = {}) {
  const max = options.max ?? 255;
  const forbidden = options.oneLine ? ONE_LINE_FORBIDDEN : FREE_TEXT_FORBIDDEN;
  const refused = options.oneLine ? hasOneLineForbidden : hasFreeTextForbidden;
  // Flags cannot be written in a schema's pattern: such a rule stays in the validator only.
  const pattern = options.pattern?.flags ? {} : { pattern: (options.pattern ?? allowedTextPattern(forbidden, !options.allowEmpty)).source };
  return applyDecorators(
    doc(options, { type: String, ...(options.allowEmpty ? {} : { minLength: 1 }), maxLength: max, ...pattern }),
    ...optional(options),
    Transform(({ value }) => (typeof value === 'string' && !refused(value) ? (options.nfc ? value.trim().normalize('NFC') : value.trim()) : value)),
    IsString(),
    ...(options.allowEmpty ? [] : [IsNotEmpty()]),
    MaxCharacters(max),
    ...(options.pattern ? [Matches(options.pattern, { message: options.patternMessage ?? `$property has an invalid format` })] : []),
    ValidateBy({
      name: options.oneLine ? 'isOneLine' : 'isFreeText',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || !refused(value),
        defaultMessage: (args) =>
          options.oneLine ? `${args?.property} must not contain line breaks or control characters` : `${args?.property} must not contain control characters other than tabs and line breaks`,
      },
    }),
  );
}

/**
 * An identifier someone else gave (a reference, transaction id, tag, serial or account number):
 * one line of at most `max` characters, spaces around it dropped, no line break or control character.
 */
/** A person's name: one line, stored in NFC, so that a search finds it however its accents were typed. */
export function PersonNameField(options: Omit<TextOptions, 'oneLine' | 'nfc'> = {}) {
  return TextField({ ...options, oneLine: true, nfc: true });
}

export function IdentifierField(options: Omit<TextOptions, 'oneLine'> = {}) {
  return TextField({ ...options, oneLine: true });
}

/**
 * A string checked as typed, then stored in its normal form: the OpenAPI schema (pattern, lengths)
 * describes exactly what is accepted, and `normalise` runs only on accepted values, which it must
 * keep acceptable (an invalid value reaches the validator unchanged and is refused).
 */
function NormalisedField(
  rule: { name: string; pattern: RegExp; minLength: number; maxLength: number; accepts?: (typed: string) => boolean; normalise: (typed: string) => string; message: (property: string) => string },
  options: FieldOptions,
) {
  const accepted = (value: unknown): value is string =>
    typeof value === 'string' && value.length >= rule.minLength && value.length <= rule.maxLength && rule.pattern.test(value) && (rule.accepts?.(value) ?? true);
  return applyDecorators(
    doc(options, { type: String, pattern: rule.pattern.source, minLength: rule.minLength, maxLength: rule.maxLength }),
    ...optional(options),
    Transform(({ value }) => (accepted(value) ? rule.normalise(value) : value)),
    ValidateBy({ name: rule.name, validator: { validate: accepted, defaultMessage: (args) => rule.message(args?.property ?? 'value') } }),
  );
}

/** A PAYG code: 3–64 letters, digits, dashes or underscores; spaces around it dropped; letter case kept (and ignored when codes are compared). */
export function PaygField(options: FieldOptions = {}) {
  return NormalisedField(
    {
      name: 'isPaygCode',
      pattern: PAYG_INPUT,
      minLength: 3,
      maxLength: PAYG_MAX_LENGTH,
      normalise: (typed) => normalisePayg(typed)!,
      message: (property) => `${property} must be 3–64 letters, digits, dashes or underscores`,
    },
    {
      example: 'PAYG-000123',
      ...options,
      description: options.description ?? '3–64 letters, digits, dashes or underscores. Unique regardless of letter case; stored and shown as first written.',
    },
  );
}

/** An IMEI: 15 digits (spaces and dashes among or around them are dropped) whose last is the Luhn check digit. */
export function ImeiField(options: FieldOptions = {}) {
  return NormalisedField(
    {
      name: 'isImei',
      pattern: IMEI_INPUT,
      minLength: 15,
      maxLength: IMEI_INPUT_MAX_LENGTH,
      accepts: (typed) => normaliseImei(typed) !== null,
      normalise: (typed) => normaliseImei(typed)!,
      message: (property) => `${property} must be 15 digits with a valid check digit`,
    },
    {
      example: '490154203237518',
      ...options,
      description:
        options.description ?? '15 digits whose last is the Luhn check digit; spaces and dashes among or around them are dropped (49-015420-323751-8 is stored as 490154203237518).',
    },
  );
}

/**
 * A telephone number as typed: + and 7–15 digits with spaces, dots, dashes or brackets. The service
 * then reads it with libphonenumber-js and DEFAULT_COUNTRY and stores it in E.164 (a number that is
 * not valid there is a 400 naming the field); the validator alone cannot know the country.
 */
export function TelephoneField(options: FieldOptions = {}) {
  return NormalisedField(
    {
      name: 'isTelephone',
      pattern: TELEPHONE_INPUT,
      minLength: 7,
      maxLength: TELEPHONE_INPUT_MAX_LENGTH,
      normalise: (typed) => typed.trim(),
      message: (property) => `${property} must be a telephone number: 7–15 digits, optionally starting with +`,
    },
    {
      example: '+256772555001',
      ...options,
      description:
        options.description ??
        'Stored in E.164 (+256772555001). Without +, read as a number of DEFAULT_COUNTRY (0772 555 001, 772555001, 256772555001) or else as an international number missing its +.',
    },
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
        defaultMessage: (args) => `${args?.property} must be a real calendar date written YYYY-MM-DD, from ${FIRST_DATE}`,
      },
    }),
  );
}
