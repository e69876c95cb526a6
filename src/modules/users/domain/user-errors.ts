import { conflict, notFound } from '../../../common/errors/domain-error.js';

export const userNotFound = (id: number) => notFound('USER_NOT_FOUND', `User ${id} not found.`);
export const usernameTaken = (username: string) => conflict('USERNAME_TAKEN', `Username ${username} is already taken.`);
export const cannotDisableSelf = () => conflict('USER_DISABLE_SELF', 'You cannot disable your own account.');
export const userIsCustomer = (id: number) =>
  conflict('USER_IS_CUSTOMER', `User ${id} is a customer identity and has no password to manage.`);
export const lastActiveAdmin = (id: number) =>
  conflict('USER_LAST_ACTIVE_ADMIN', `User ${id} is the last active administrator and cannot be disabled.`);
export const usernameCollides = (id: number) =>
  conflict('USER_USERNAME_COLLIDES', `User ${id} cannot be enabled: its username is another user's once letter case is ignored.`);
