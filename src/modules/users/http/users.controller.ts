import { Body, Controller, Get, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { Page, PageOf } from '../../../common/http/pagination.js';
import { UsersService } from '../application/users.service.js';
import { ChangePasswordRequest, CreateUserRequest, MessageResponse, UserDetailResponse, UserIdRequest, UserListQuery, UserResponse } from './users.dto.js';

@ApiTags('Users')
@Controller('finance/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post('create')
  @Endpoint({ summary: 'Create a staff user', roles: [], status: HttpStatus.CREATED, response: UserResponse, errors: [409] })
  async create(@Body() body: CreateUserRequest): Promise<UserResponse> {
    const { id, username, role } = await this.users.create(body);
    return { id, username, role };
  }

  @Get()
  @Endpoint({ summary: 'List users', description: 'Staff users (ADMIN, OPERATOR, COLLECTOR, PROVIDER) in the order they were made; `role` narrows the list to one role, CUSTOMER included.', roles: [], response: PageOf(UserDetailResponse) })
  list(@Query() query: UserListQuery): Promise<Page<UserDetailResponse>> {
    return this.users.list(query);
  }

  @Post('disable')
  @Endpoint({
    summary: 'Disable a user; their tokens stop working',
    description:
      'The user can no longer sign in and every token they hold stops working (at once on this instance, within 5 seconds on the others); enabling them again does not bring those tokens back. ' +
      '409 for yourself and for the last active ADMIN (`User 1 is the last active administrator and cannot be disabled.`), also when two admins disable each other at the same moment.',
    roles: [],
    response: UserDetailResponse,
    errors: [404, 409],
  })
  disable(@Body() body: UserIdRequest, @CurrentUser() actor: AuthUser): Promise<UserDetailResponse> {
    return this.users.disable(body.id, actor);
  }

  @Post('enable')
  @Endpoint({
    summary: 'Enable a disabled user',
    description: 'The user may sign in again; tokens issued before the disable stay ended. Enabling an active user changes nothing. 409 for a user disabled by the upgrade because an older user has the same username once letter case is ignored.',
    roles: [],
    response: UserDetailResponse,
    errors: [404, 409],
  })
  enable(@Body() body: UserIdRequest): Promise<UserDetailResponse> {
    return this.users.enable(body.id);
  }

  @Post('password')
  @Endpoint({
    summary: 'Set a user’s password',
    description: 'Passwords are 12–128 characters, not only whitespace, stored as an argon2id hash. Every token the user holds stops working (yours too, when you change your own).',
    roles: [],
    response: MessageResponse,
    errors: [404, 409],
  })
  changePassword(@Body() body: ChangePasswordRequest): Promise<MessageResponse> {
    return this.users.changePassword(body.id, body.password);
  }
}
