import { ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { PUBLIC_KEY, ROLES_KEY } from '../../../common/auth/auth.decorators.js';
import { AuthUser, Role } from '../../../common/auth/role.js';
import { ACCESS_TOKEN_HEADER, JwtStrategy } from '../infrastructure/jwt.strategy.js';

export const NO_TOKEN = 'No token provided.';
export const TOKEN_EXPIRED = 'Unauthorized! Access Token was expired!';
export const TOKEN_INVALID = 'Unauthorized!';
export const FORBIDDEN = 'Forbidden.';

/**
 * The global guard: open routes pass, every other route needs a valid token and a role listed in
 * its @Roles (ADMIN may do everything). A route with neither @Public nor @Roles is refused: closed by default.
 */
@Injectable()
export class AccessGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly strategy: JwtStrategy,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown>; user?: AuthUser }>();
    const header = request.headers[ACCESS_TOKEN_HEADER];
    if (header === undefined || header === '') throw new UnauthorizedException(NO_TOKEN);
    // a token verified before goes straight to the user check; any other through passport-jwt
    const known = typeof header === 'string' ? this.strategy.verifiedClaims(header) : undefined;
    if (known) {
      const user = await this.strategy.identityOf(known, header as string);
      if (!user) throw new UnauthorizedException(TOKEN_INVALID);
      request.user = user;
    } else {
      await super.canActivate(context);
    }
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets);
    const user = request.user!;
    if (!roles || !(user.role === Role.ADMIN || roles.includes(user.role))) throw new ForbiddenException(FORBIDDEN);
    return true;
  }

  override handleRequest<T>(error: unknown, user: T, info: unknown): T {
    // A failure while looking the user up (the database unreachable) is not a bad token: let it reach
    // the error filter, which answers 503, so a caller retries instead of discarding its token.
    if (error) throw error;
    if (user) return user;
    if ((info as { name?: string } | undefined)?.name === 'TokenExpiredError') throw new UnauthorizedException(TOKEN_EXPIRED);
    throw new UnauthorizedException(TOKEN_INVALID);
  }
}
