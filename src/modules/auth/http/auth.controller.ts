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
    description: 'Wrong username or password (or a disabled user) → 401 `Invalid username or password.` Limited to 10 attempts a minute per username and client address (429).',
    roles: 'public',
    response: SignInResponse,
    errors: [401, 429],
  })
  signIn(@Body() body: SignInRequest): Promise<SignInResponse> {
    return this.auth.signIn(body.username, body.password);
  }
}
