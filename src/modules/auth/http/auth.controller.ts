import { Body, Controller, Headers, Post, UseGuards } from '@nestjs/common';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import { type AuthUser, Role } from '../../../common/auth/role.js';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { EmptyBodyPipe } from '../../../common/validation/validation.pipe.js';
import { AuthService } from '../application/auth.service.js';
import { SignInRequest, SignInResponse, SignOutResponse } from './signin.dto.js';
import { SignInRateLimitGuard } from './signin-rate-limit.guard.js';
import { ACCESS_TOKEN_HEADER } from '../infrastructure/jwt.strategy.js';

@ApiTags('Authentication')
@Controller('api/auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('signin')
  @UseGuards(SignInRateLimitGuard)
  @Endpoint({
    summary: 'Sign in and get an access token',
    description:
      'Wrong username or password (or a disabled user) → 401 `Invalid username or password.` The username is compared regardless of letter case (Unicode NFKC, then lower case). ' +
      'Attempts are counted in the database for every instance together: SIGNIN_ADDRESS_LIMIT (default 30) a minute per client address whatever the username, checked before any password is hashed, ' +
      'and SIGNIN_RATE_LIMIT (default 10) a minute per client address and username; beyond either → 429 with `retry-after`. The token carries `sub`, `username`, `role`, `env`, `ver` (the user’s token version: a password change or a disable ends it) and `jti` (this sign-in’s own id: signing out ends this token alone).',
    roles: 'public',
    response: SignInResponse,
    errors: [401, 429],
  })
  signIn(@Body() body: SignInRequest): Promise<SignInResponse> {
    return this.auth.signIn(body.username, body.password);
  }

  @Post('signout')
  @Endpoint({
    summary: 'Sign out: end the token sent',
    description:
      'The token sent, and every copy of it, stops working (at once on this instance, within 5 seconds on the others); your other sign-ins go on. ' +
      'The web client’s “Sign out” calls it, so a token read from a shared computer before it was signed out is of no use. Sign in again for a new token.',
    roles: [Role.OPERATOR, Role.COLLECTOR, Role.PROVIDER],
    response: SignOutResponse,
  })
  signOut(@Body(EmptyBodyPipe) _body: Record<string, never>, @CurrentUser() user: AuthUser, @Headers(ACCESS_TOKEN_HEADER) token: string): Promise<SignOutResponse> {
    return this.auth.signOut(user, token);
  }
}
