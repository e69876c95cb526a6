import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { AuthUser, Role } from './role.js';

export const ROLES_KEY = 'payg:roles';
export const PUBLIC_KEY = 'payg:public';

/** Who may call the route. ADMIN may call everything, so it is implied. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

/** An open route (sign-in, health, docs). Every other route must carry @Roles. */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthUser => {
  return ctx.switchToHttp().getRequest<{ user: AuthUser }>().user;
});
