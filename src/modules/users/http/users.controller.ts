import { Body, Controller, Get, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthUser } from '../../../common/auth/role.js';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { PageQuery } from '../../../common/http/pagination.js';
import { UsersService } from '../application/users.service.js';
import { ChangePasswordRequest, CreateUserRequest, MessageResponse, UserDetailResponse, UserIdRequest, UserPageResponse, UserResponse } from './users.dto.js';

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
  @Endpoint({ summary: 'List users', roles: [], response: UserPageResponse })
  list(@Query() query: PageQuery): Promise<UserPageResponse> {
    return this.users.list(query);
  }

  @Post('disable')
  @Endpoint({ summary: 'Disable a user; their tokens stop working', roles: [], response: UserDetailResponse, errors: [404, 409] })
  disable(@Body() body: UserIdRequest, @CurrentUser() actor: AuthUser): Promise<UserDetailResponse> {
    return this.users.disable(body.id, actor);
  }

  @Post('password')
  @Endpoint({ summary: 'Set a user’s password', roles: [], response: MessageResponse, errors: [404, 409] })
  changePassword(@Body() body: ChangePasswordRequest): Promise<MessageResponse> {
    return this.users.changePassword(body.id, body.password);
  }
}
