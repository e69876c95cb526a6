import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { IdField } from '../../../common/validation/fields.js';
import { Role, STAFF_ROLES } from '../../../common/auth/role.js';

export class CreateUserRequest {
  @ApiProperty({ example: 'operator1', description: '3–64 characters: letters, digits, dot, dash, underscore, @.' })
  @IsString()
  @Matches(/^[A-Za-z0-9._@+-]{3,64}$/, { message: 'username must be 3–64 letters, digits or . _ @ + -' })
  username: string;

  @ApiProperty({ example: 'a-long-passphrase', minLength: 8, maxLength: 72 })
  @IsString()
  @MinLength(8)
  @MaxLength(72)
  password: string;

  @ApiProperty({ enum: STAFF_ROLES, example: Role.OPERATOR })
  @IsIn(STAFF_ROLES)
  role: Role;
}

export class UserIdRequest {
  @IdField({ example: 2 })
  id: number;
}

export class ChangePasswordRequest extends UserIdRequest {
  @ApiProperty({ example: 'another-long-passphrase', minLength: 8, maxLength: 72 })
  @IsString()
  @IsNotEmpty()
  @MinLength(8)
  @MaxLength(72)
  password: string;
}

export class UserResponse {
  @ApiProperty({ example: 2 }) id: number;
  @ApiProperty({ example: 'operator1' }) username: string;
  @ApiProperty({ enum: Role, example: Role.OPERATOR }) role: Role;
}

export class UserDetailResponse extends UserResponse {
  @ApiProperty({ example: true }) active: boolean;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' }) createdat: string;
}

export class UserPageResponse {
  @ApiProperty({ type: [UserDetailResponse] }) items: UserDetailResponse[];
  @ApiProperty({ example: 1 }) total: number;
  @ApiProperty({ example: 1 }) page: number;
  @ApiProperty({ example: 20 }) limit: number;
}

export class MessageResponse {
  @ApiProperty({ example: 'Password changed.' }) message: string;
}
