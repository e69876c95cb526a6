/**
 * A PAYG code as typed: 3–64 letters, digits, dashes or underscores, spaces around it allowed and
 * dropped. Stored as written (letter case kept); two codes that differ only in letter case are one
 * code (the database keeps one customer per lower(payg)).
 */
export const PAYG_INPUT = /^ *[A-Za-z0-9_-]{3,64} *$/;
export const PAYG_MAX_LENGTH = 64;
export const PAYG_STORED = /^[A-Za-z0-9_-]{3,64}$/;

/** The stored form of a typed PAYG code, or null when it is not one. */
export function normalisePayg(typed: string): string | null {
  if (typed.length > PAYG_MAX_LENGTH || !PAYG_INPUT.test(typed)) return null;
  return typed.trim();
}

/** The form two codes are compared in: the same in the service and the database (lower(payg)). */
export const paygKey = (payg: string): string => payg.trim().toLowerCase();
