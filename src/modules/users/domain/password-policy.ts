/** Passwords are 12–128 characters (Unicode code points), and not only whitespace. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** Why a new password is refused, naming the field as `field`, or undefined when it is acceptable. */
export function passwordProblem(password: string, field = 'password'): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `${field} must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `${field} must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (password.trim() === '') return `${field} must not be only whitespace`;
  return undefined;
}
