import { EnumValue, stringEnum } from '../types/string-enum.js';

/**
 * Who a user is; `CUSTOMER` is a customer's own identity, made at registration; it has no password and cannot sign in.
 */
export const Role = stringEnum('ADMIN', 'OPERATOR', 'COLLECTOR', 'PROVIDER', 'CUSTOMER');
export type Role = EnumValue<typeof Role>;

/** The roles staff accounts may be given through users/create. */
export const STAFF_ROLES = [Role.ADMIN, Role.OPERATOR, Role.COLLECTOR, Role.PROVIDER] as const;

export interface AuthUser {
  id: number;
  username: string;
  role: Role;
}
