export enum Role {
  ADMIN = 'ADMIN',
  OPERATOR = 'OPERATOR',
  COLLECTOR = 'COLLECTOR',
  PROVIDER = 'PROVIDER',
  /** A customer's own identity, made at registration; it has no password and cannot sign in. */
  CUSTOMER = 'CUSTOMER',
}

/** The roles staff accounts may be given through users/create. */
export const STAFF_ROLES = [Role.ADMIN, Role.OPERATOR, Role.COLLECTOR, Role.PROVIDER] as const;

export interface AuthUser {
  id: number;
  username: string;
  role: Role;
}
