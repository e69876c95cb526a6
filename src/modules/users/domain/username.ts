/**
 * The one form in which usernames are compared, in the service and in the database alike: Unicode
 * NFKC, then lower case. JavaScript lowers `İ` (U+0130) to `i` + U+0307 (combining dot), while
 * PostgreSQL's lower() under glibc gives a plain `i`; mapping U+0130 to `i` first makes `İii9` and
 * `iii9` one user and one rate-limit bucket. The database never lowers anything itself: the service
 * stores this form in `users.username_canonical`, which carries the unique index. The trailing NFKC
 * keeps the result a fixed point (canonical(canonical(x)) = canonical(x)).
 */
export function canonicalUsername(username: string): string {
  return username.normalize('NFKC').replace(/\u0130/g, 'i').toLowerCase().normalize('NFKC');
}

/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators. */
const CONTROL_OR_LINE_BREAK = /[\p{Cc}\u2028\u2029]/u;

/** Why a username can never name a user (line breaks, control characters), or undefined. */
export function usernameProblem(username: string): string | undefined {
  if (CONTROL_OR_LINE_BREAK.test(username)) return 'username must not contain line breaks or control characters';
  return undefined;
}

/**
 * Why a new staff user may not take this name, or undefined: a customer's identity is named after
 * their telephone in international form (+256772555001), so a staff user named so would keep that
 * customer from ever being registered.
 */
export function staffUsernameProblem(username: string): string | undefined {
  if (/^\+[0-9]+$/.test(username)) return 'username must not be a telephone number in international form: customers are known by theirs';
  return usernameProblem(username);
}
