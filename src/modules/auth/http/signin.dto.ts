import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { Role } from '../../../common/auth/role.js';

export class SignInRequest {
  @ApiProperty({
    example: 'operator1',
    minLength: 1,
    maxLength: 255,
    pattern: '^[^\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029]*$',
    description: 'Compared regardless of letter case (Unicode NFKC, then lower case). No line breaks or control characters.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  @Matches(/^[^\p{Cc}\u2028\u2029]*$/u, { message: 'username must not contain line breaks or control characters' })
  username: string;

  @ApiProperty({ example: 'correct horse battery staple', minLength: 1, maxLength: 255, description: 'Checked as given: passwords set before the 12-character rule still sign in.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  password: string;
}

export class SignInResponse {
  @ApiProperty({ type: 'integer', example: 1 })
  id: number;

  @ApiProperty({ example: 'operator1' })
  username: string;

  @ApiProperty({ enum: Role, example: Role.OPERATOR })
  role: Role;

  @ApiProperty({ description: 'JWT (HS256) to send as `x-access-token`; valid for 24 hours on this environment only.', example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9…' })
  accessToken: string;
}

export class SignOutResponse {
  @ApiProperty({ example: 'Signed out.' })
  message: string;
}
