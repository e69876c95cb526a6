/**
 * Which characters a typed value may hold. Identifiers (ids, references, tags, codes, serial and
 * account numbers) and names are one line: no control character (C0, DEL, C1), no Unicode line or
 * paragraph separator, and no bidirectional embedding, override or isolate (they make a value
 * display as something other than what is stored). Free text (narration, notes, messages) may
 * also hold tabs and line breaks (TAB, LF, CR), and nothing else from C0 or C1.
 *
 * The classes are written with \u escapes so that the same text is a JavaScript RegExp and an
 * OpenAPI `pattern` (ECMA-262, no flags).
 */
export const ONE_LINE_FORBIDDEN = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
export const FREE_TEXT_FORBIDDEN = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f';

/** `^…$` over allowed characters; with `nonBlank`, at least one that is not white space (what trimming would leave). */
export function allowedTextPattern(forbidden: string, nonBlank: boolean): RegExp {
  return new RegExp(nonBlank ? `^[^${forbidden}]*[^${forbidden}\\s][^${forbidden}]*$` : `^[^${forbidden}]*$`);
}

const oneLineForbidden = new RegExp(`[${ONE_LINE_FORBIDDEN}]`);
const freeTextForbidden = new RegExp(`[${FREE_TEXT_FORBIDDEN}]`);

export const hasOneLineForbidden = (text: string): boolean => oneLineForbidden.test(text);
export const hasFreeTextForbidden = (text: string): boolean => freeTextForbidden.test(text);

const oneLineRuns = new RegExp(`[${ONE_LINE_FORBIDDEN}\\s]+`, 'g');

/**
 * Text another system sent (a platform's reason for refusing) as one line this service can store and
 * show: control characters (NUL, which PostgreSQL refuses in text, included), line breaks and
 * direction overrides become single spaces.
 */
export const asOneLine = (text: string): string => text.replace(oneLineRuns, ' ').trim();

const SURROGATE_PAIR = /[\ud800-\udbff][\udc00-\udfff]/g;

/**
 * A text's length in characters (code points), as PostgreSQL measures a varchar(n) and JSON Schema a
 * maxLength. Not UTF-16 units (an emoji outside the BMP would count two) and not class-validator's
 * MaxLength, which leaves variation selectors uncounted (200 × "a\uFE0F" would pass as 200).
 */
export function textLength(text: string): number {
  return text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
}

/** `text` cut to at most `max` characters (code points: a varchar(max) holds it), never between the two halves of one. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}
