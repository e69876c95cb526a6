import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { createSecretKey } from 'node:crypto';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppConfig } from '../../../config/app-config.js';
import { AuthUser, Role } from '../../../common/auth/role.js';
import { UsersService } from '../../users/application/users.service.js';
import { SignedOutTokens } from './signed-out-tokens.js';

export const ACCESS_TOKEN_HEADER = 'x-access-token';

export interface AccessTokenClaims {
  sub: number;
  username: string;
  role: Role;
  env: string;
  /** The user's token version when the token was issued; a password change or a disable raises it. */
  ver: number;
}

/** How many verified tokens are remembered; past it the memory starts again (a token is verified again on its next use). */
const VERIFIED_TOKENS_MAX = 10_000;

/**
 * Reads `x-access-token`, accepts HS256 only, from this environment's issuer only, for active users
 * only, not signed out, carrying the user's current token version (tokens from before versions existed have none and
 * are refused: everyone signs in again once after the upgrade).
 *
 * A token whose signature was verified once is remembered with its claims until it expires, so the
 * provider's callbacks and a screen's requests, which send one token again and again, are not
 * verified again each time (HMAC and JSON parsing were a twentieth of the callback's CPU). Only the
 * signature check is remembered: the claims are checked against the user on every request.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  private readonly verified = new Map<string, AccessTokenClaims & { exp: number }>();

  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly signedOut: SignedOutTokens,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromHeader(ACCESS_TOKEN_HEADER),
      // A KeyObject built once: jsonwebtoken spends ~0.5 ms per verify turning a string secret into one.
      secretOrKey: createSecretKey(Buffer.from(config.jwt.secret)) as unknown as string,
      algorithms: ['HS256'],
      issuer: config.jwt.issuer,
      ignoreExpiration: false,
      passReqToCallback: true,
    });
  }

  /** After passport-jwt verified the token's signature, issuer and expiry. */
  async validate(request: { headers: Record<string, unknown> }, claims: AccessTokenClaims & { exp?: number; nbf?: number }): Promise<AuthUser | false> {
    const token = request.headers[ACCESS_TOKEN_HEADER];
    if (typeof token === 'string' && typeof claims.exp === 'number' && claims.nbf === undefined) {
      if (this.verified.size >= VERIFIED_TOKENS_MAX) this.verified.clear();
      this.verified.set(token, claims as AccessTokenClaims & { exp: number });
    }
    return typeof token === 'string' ? this.identityOf(claims, token) : false;
  }

  /**
   * The claims of a token verified before and not expired since (jsonwebtoken's rule: expired from
   * the second `exp` on), or undefined: then it goes through passport-jwt.
   */
  verifiedClaims(token: string): AccessTokenClaims | undefined {
    const claims = this.verified.get(token);
    if (!claims) return undefined;
    if (Math.floor(Date.now() / 1000) < claims.exp) return claims;
    this.verified.delete(token);
    return undefined;
  }

  /** The active user a token's claims name, in this environment, at the user's current token version, unless the token was signed out. */
  async identityOf(claims: AccessTokenClaims, token: string): Promise<AuthUser | false> {
    if (claims.env !== this.config.env || !Number.isInteger(claims.sub) || !Number.isInteger(claims.ver)) return false;
    const [user, signedOut] = await Promise.all([this.users.activeIdentity(claims.sub, claims.ver), this.signedOut.isSignedOut(claims.sub, token)]);
    return user && !signedOut ? user : false;
  }
}
