import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { DomainError, ErrorKind } from '../../../common/errors/domain-error.js';
import { AppConfig } from '../../../config/app-config.js';

export const TOO_MANY_REQUESTS = 'Too many requests. Try again in a minute.';

/**
 * Sign-in attempts are limited per username and client address (SIGNIN_RATE_LIMIT a minute),
 * counted in memory on each instance. (@nestjs/throttler 6 is CommonJS that requires the ESM-only
 * @nestjs/common 12, which Jest cannot load on Node 20; rate-limiter-flexible does the same job.)
 */
@Injectable()
export class SignInRateLimitGuard implements CanActivate {
  private readonly limiter: RateLimiterMemory;

  constructor(config: AppConfig) {
    this.limiter = new RateLimiterMemory({ points: config.signInRateLimit, duration: 60 });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const body = request.body as { username?: unknown } | undefined;
    const username = typeof body?.username === 'string' ? body.username.toLowerCase().slice(0, 255) : '';
    try {
      await this.limiter.consume(`${request.ip}|${username}`);
      return true;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const reply = context.switchToHttp().getResponse<FastifyReply>();
      void reply.header('retry-after', String(Math.ceil(rejection.msBeforeNext / 1000)));
      throw new DomainError(ErrorKind.RATE_LIMITED, 'SIGNIN_RATE_LIMITED', TOO_MANY_REQUESTS);
    }
  }
}
