import { CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * A telephone number as typed: an optional leading +, then 7–15 digits with spaces, dots, dashes
 * or brackets between them ("+256 772 555 001", "0772-555-001", "(0772) 555001"). No letters, so no
 * extensions. Whether it is a real number is decided by libphonenumber-js (normaliseTelephone).
 */
export const TELEPHONE_INPUT = /^ *\+?(?:[ ().-]*[0-9]){7,15}[ ().-]*$/;
export const TELEPHONE_INPUT_MAX_LENGTH = 32;

/**
 * The E.164 form (+256772555001) of a typed number, or null when it is not a valid number.
 *
 * With a +, the number carries its country code. Without one, it is first read as a number of
 * `defaultCountry`, written nationally (0772555001, 772555001) or with that country's code and no +
 * (256772555001, which libphonenumber-js recognises); if that is not a valid number, as an
 * international number whose + was left out (254712345678 → +254712345678). A number valid both
 * ways is read as the default country's: that is what an operator of that country typed.
 */
export function normaliseTelephone(typed: string, defaultCountry: string): string | null {
  if (typed.length > TELEPHONE_INPUT_MAX_LENGTH || !TELEPHONE_INPUT.test(typed)) return null;
  const written = typed.trim();
  if (written.startsWith('+')) return valid(written, undefined);
  return valid(written, defaultCountry as CountryCode) ?? (written.startsWith('0') ? null : valid(`+${written}`, undefined));
}

function valid(text: string, country: CountryCode | undefined): string | null {
  const parsed = parsePhoneNumberFromString(text, country ? { defaultCountry: country } : undefined);
  return parsed && parsed.isValid() && !parsed.ext ? parsed.number : null;
}
