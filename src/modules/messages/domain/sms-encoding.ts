/**
 * How an SMS is billed: GSM 03.38 7-bit text is 160 characters in one segment and 153 per segment
 * when concatenated (the user-data header takes 7); a character of the extension table costs two
 * septets (escape + code) and an escape pair is never split across segments. Any character outside
 * both tables makes the whole message UCS-2: 70 UTF-16 units in one segment, 67 per segment when
 * concatenated, a surrogate pair never split.
 */
export type SmsEncoding = 'GSM-7' | 'UCS-2';

const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

export interface SmsSize {
  encoding: SmsEncoding;
  /** septets (GSM-7) or UTF-16 units (UCS-2) */
  units: number;
  segments: number;
}

export const isGsm7 = (text: string): boolean => [...text].every((ch) => BASIC.has(ch) || EXTENSION.has(ch));

/** Fills segments of `perSegment` units with indivisible pieces (an escape pair, a surrogate pair). */
function countSegments(pieces: number[], single: number, perSegment: number): { units: number; segments: number } {
  const units = pieces.reduce((a, b) => a + b, 0);
  if (units === 0) return { units, segments: 1 };
  if (units <= single) return { units, segments: 1 };
  let segments = 1;
  let used = 0;
  for (const piece of pieces) {
    if (used + piece > perSegment) {
      segments++;
      used = 0;
    }
    used += piece;
  }
  return { units, segments };
}

export function smsSize(text: string): SmsSize {
  const chars = [...text];
  if (isGsm7(text)) return { encoding: 'GSM-7', ...countSegments(chars.map((ch) => (EXTENSION.has(ch) ? 2 : 1)), 160, 153) };
  return { encoding: 'UCS-2', ...countSegments(chars.map((ch) => ch.length), 70, 67) };
}

/** Two GSM-7 segments: what every template must fit with the longest values it can carry. */
export const TEMPLATE_MAX_SEPTETS = 306;
/** An operator's own message: three GSM-7 segments. */
export const OPERATOR_TEXT_MAX = 459;
