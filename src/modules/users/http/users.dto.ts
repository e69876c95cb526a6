import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, ValidateBy } from 'class-validator';
import { PageQuery } from '../../../common/http/pagination.js';
import { IdField } from '../../../common/validation/fields.js';
import { Role, STAFF_ROLES } from '../../../common/auth/role.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from '../domain/password-policy.js';
import type { UserView } from '../application/users.service.js';
import { staffUsernameProblem } from '../domain/username.js';

/** A new password: 12–128 characters, not only whitespace (the domain's password policy). */
function PasswordField(example: string) {
  return applyDecorators(
    ApiProperty({
      example,
      minLength: PASSWORD_MIN_LENGTH,
      maxLength: PASSWORD_MAX_LENGTH,
      pattern: '\\S',
      description: `${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH} characters, not only whitespace. Stored as an argon2id hash; never returned.`,
    }),
    IsString(),
    ValidateBy({
      name: 'isAcceptablePassword',
      validator: {
        // a value that is not a string is IsString's to report
        validate: (value: unknown) => typeof value !== 'string' || passwordProblem(value) === undefined,
        defaultMessage: (args) => passwordProblem(String(args?.value), args?.property) ?? `${args?.property} is not an acceptable password`,
      },
    }),
  );
}

export class CreateUserRequest {
  @ApiProperty({
    example: 'operator1',
    minLength: 3,
    maxLength: 64,
    pattern: '^[A-Za-z0-9._@+-]{3,64}$',
    description: '3–64 characters: letters, digits, dot, dash, underscore, @, +. Unique regardless of letter case. Not a telephone number in international form (+256…): customers are known by theirs.',
  })
  @IsString()
  @Matches(/^[A-Za-z0-9._@+-]{3,64}$/, { message: 'username must be 3–64 letters, digits or . _ @ + -' })
  @ValidateBy({ name: 'isStaffUsername', validator: { validate: (value: unknown) => typeof value !== 'string' || staffUsernameProblem(value) === undefined, defaultMessage: (args) => staffUsernameProblem(String(args?.value)) ?? 'username is not acceptable' } })
  username: string;

  @PasswordField('a-long-passphrase')
  password: string;

  @ApiProperty({ enum: STAFF_ROLES, example: Role.OPERATOR })
  @IsIn(STAFF_ROLES)
  role: Role;
}

const ROLES = Object.values(Role);

export class UserListQuery extends PageQuery {
  @ApiPropertyOptional({ enum: ROLES, description: 'Only users of this role. Without it, staff only: a customer’s identity (role CUSTOMER, made at registration) is listed only when asked for.' })
  @IsOptional()
  @IsIn(ROLES, { message: `role must be one of ${ROLES.join(', ')}` })
  role?: Role;
}

export class UserIdRequest {
  @IdField({ example: 2 })
  id: number;
}

export class ChangePasswordRequest extends UserIdRequest {
  @PasswordField('another-long-passphrase')
  password: string;
}

export class UserResponse implements Pick<UserView, 'id' | 'username' | 'role'> {
  @ApiProperty({ type: 'integer', example: 2 }) id: number;
  @ApiProperty({ example: 'operator1' }) username: string;
  @ApiProperty({ enum: Role, example: Role.OPERATOR }) role: Role;
}

export class UserDetailResponse extends UserResponse implements UserView {
  @ApiProperty({ example: true }) active: boolean;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' }) createdat: string;
}

export class MessageResponse {
  @ApiProperty({ example: 'Password changed.' }) message: string;
}
