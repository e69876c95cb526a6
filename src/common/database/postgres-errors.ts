/** PostgreSQL SQLSTATE codes the services translate into business answers. */
const code = (error: unknown): string | undefined =>
  (error as { code?: string })?.code ?? (error as { driverError?: { code?: string } })?.driverError?.code;

export const isUniqueViolation = (error: unknown, constraint?: string): boolean =>
  code(error) === '23505' &&
  (!constraint || ((error as { constraint?: string; driverError?: { constraint?: string } }).constraint ?? (error as { driverError?: { constraint?: string } }).driverError?.constraint) === constraint);

export const uniqueConstraintOf = (error: unknown): string | undefined =>
  (error as { constraint?: string }).constraint ?? (error as { driverError?: { constraint?: string } }).driverError?.constraint;

export const isSerializationFailure = (error: unknown): boolean => code(error) === '40001' || code(error) === '40P01';
