import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ErrorKind } from '../../../common/errors/domain-error.js';
import { UsersService } from '../../users/application/users.service.js';
import { SignInLimited, SignInLimiter } from '../infrastructure/signin-limiter.js';

export const TOO_MANY_REQUESTS = 'Too many requests. Try again in a minute.';

/**
 * Runs before the body is validated and long before any password is hashed: counts the attempt
 * per client address, then per address and canonical username (letter-case variants share one
 * count), and answers 429 once either has used its minute.
 */
@Injectable()
export class SignInRateLimitGuard implements CanActivate {
  constructor(private readonly limiter: SignInLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const body = request.body as { username?: unknown } | undefined;
    const username = typeof body?.username === 'string' ? UsersService.canonicalUsername(body.username.slice(0, 255)) : '';
    try {
      await this.limiter.consume(request.ip, username);
      return true;
    } catch (error) {
      if (!(error instanceof SignInLimited)) throw error;
      const reply = context.switchToHttp().getResponse<FastifyReply>();
      void reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))));
      throw new DomainError(ErrorKind.RATE_LIMITED, 'SIGNIN_RATE_LIMITED', TOO_MANY_REQUESTS);
    }
  }
}
