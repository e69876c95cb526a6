import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomBytes } from 'node:crypto';
import type { AuthUser } from '../../../common/auth/role.js';
import { DomainError, ErrorKind } from '../../../common/errors/domain-error.js';
import { AppConfig } from '../../../config/app-config.js';
import { UsersService } from '../../users/application/users.service.js';
import { AccessTokenClaims } from '../infrastructure/jwt.strategy.js';
import { SignedOutTokens } from '../infrastructure/signed-out-tokens.js';

export const INVALID_CREDENTIALS = 'Invalid username or password.';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
    private readonly signedOut: SignedOutTokens,
  ) {}

  /** Same answer for an unknown name, a wrong password and a disabled user, so names cannot be probed. */
  async signIn(username: string, password: string) {
    const user = await this.users.verifyCredentials(username, password);
    if (!user) throw new DomainError(ErrorKind.UNAUTHENTICATED, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
    const claims: AccessTokenClaims = { sub: user.id, username: user.username, role: user.role, env: this.config.env, ver: user.tokenVersion };
    // `jti`: two sign-ins in one second would otherwise get the same token, and signing out of one would end both
    const accessToken = await this.jwt.signAsync(claims, { jwtid: randomBytes(12).toString('base64url') });
    return { id: user.id, username: user.username, role: user.role, accessToken };
  }

  /** Ends the token the user signed out with, and every copy of it; their other sign-ins go on. */
  async signOut(user: AuthUser, token: string): Promise<{ message: string }> {
    // the guard verified it; one without `exp` would never expire, and is kept as long
    const exp = (this.jwt.decode<{ exp?: unknown } | null>(token) ?? {}).exp;
    await this.signedOut.record(user.id, token, typeof exp === 'number' ? new Date(exp * 1000) : new Date(8.64e15));
    return { message: 'Signed out.' };
  }
}
