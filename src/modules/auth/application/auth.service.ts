import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { DomainError, ErrorKind } from '../../../common/errors/domain-error.js';
import { AppConfig } from '../../../config/app-config.js';
import { UsersService } from '../../users/application/users.service.js';
import { AccessTokenClaims } from '../infrastructure/jwt.strategy.js';

export const INVALID_CREDENTIALS = 'Invalid username or password.';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
  ) {}

  /** Same answer for an unknown name, a wrong password and a disabled user, so names cannot be probed. */
  async signIn(username: string, password: string) {
    const user = await this.users.verifyCredentials(username, password);
    if (!user) throw new DomainError(ErrorKind.UNAUTHENTICATED, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
    const claims: AccessTokenClaims = { sub: user.id, username: user.username, role: user.role, env: this.config.env, ver: user.tokenVersion };
    const accessToken = await this.jwt.signAsync(claims);
    return { id: user.id, username: user.username, role: user.role, accessToken };
  }
}
