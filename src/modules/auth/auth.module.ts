import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AppConfig } from '../../config/app-config.js';
import { UsersModule } from '../users/users.module.js';
import { AuthService } from './application/auth.service.js';
import { AccessGuard } from './http/access.guard.js';
import { AuthController } from './http/auth.controller.js';
import { SignInRateLimitGuard } from './http/signin-rate-limit.guard.js';
import { JwtStrategy } from './infrastructure/jwt.strategy.js';
import { SignedOutTokens } from './infrastructure/signed-out-tokens.js';
import { SignInLimiter } from './infrastructure/signin-limiter.js';

@Module({
  imports: [
    UsersModule,
    PassportModule,
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        secret: config.jwt.secret,
        signOptions: { algorithm: 'HS256', expiresIn: config.jwt.expiresIn as never, issuer: config.jwt.issuer },
        verifyOptions: { algorithms: ['HS256'], issuer: config.jwt.issuer },
      }),
    }),
  ],
  controllers: [AuthController],
  providers: [AuthService, JwtStrategy, SignInLimiter, SignedOutTokens, SignInRateLimitGuard, { provide: APP_GUARD, useClass: AccessGuard }],
})
export class AuthModule {}
