/**
 * An IMEI as typed: 15 digits with spaces or dashes anywhere among and around them
 * ("35-209900-176148-1", " 35 209900 176148 1 "); DESIGN part 10: spaces and dashes removed, then
 * exactly 15 digits. Stored as the 15 digits alone, whose last is the Luhn check digit of the first 14.
 */
export const IMEI_INPUT = /^[ -]*(?:[0-9][ -]*){15}$/;
export const IMEI_INPUT_MAX_LENGTH = 64;

/** True when the last digit is the Luhn check digit of the ones before it. */
export function luhnValid(digits: string): boolean {
  if (!/^[0-9]{2,}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The Luhn check digit that completes `body` (the first 14 digits of an IMEI). */
export function luhnCheckDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${body}${d}`)) return String(d);
  throw new Error(`not a string of digits: ${body}`);
}

/** The stored form of a typed IMEI, or null when it is not 15 digits with a valid check digit. */
export function normaliseImei(typed: string): string | null {
  if (typed.length > IMEI_INPUT_MAX_LENGTH || !IMEI_INPUT.test(typed)) return null;
  const digits = typed.replace(/[ -]/g, '');
  return luhnValid(digits) ? digits : null;
}
