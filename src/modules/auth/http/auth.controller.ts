import { Body, Controller, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { AuthService } from '../application/auth.service.js';
import { SignInRequest, SignInResponse } from './signin.dto.js';
import { SignInRateLimitGuard } from './signin-rate-limit.guard.js';

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
      'and SIGNIN_RATE_LIMIT (default 10) a minute per client address and username; beyond either → 429 with `retry-after`. The token carries `sub`, `username`, `role`, `env` and `ver` (the user’s token version: a password change or a disable ends it).',
    roles: 'public',
    response: SignInResponse,
    errors: [401, 429],
  })
  signIn(@Body() body: SignInRequest): Promise<SignInResponse> {
    return this.auth.signIn(body.username, body.password);
  }
}
