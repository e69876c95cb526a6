import { Module } from '@nestjs/common';
import { PasswordHasher } from './application/password-hasher.js';
import { FirstAdminBootstrap } from './application/first-admin.bootstrap.js';
import { UsersService } from './application/users.service.js';
import { UsersController } from './http/users.controller.js';
import { UsersRepository } from './infrastructure/users.repository.js';

@Module({
  controllers: [UsersController],
  providers: [UsersService, UsersRepository, PasswordHasher, FirstAdminBootstrap],
  exports: [UsersService],
})
export class UsersModule {}
