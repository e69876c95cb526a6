import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Role } from '../../../common/auth/role.js';

export class SignInRequest {
  @ApiProperty({ example: 'operator1', maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  username: string;

  @ApiProperty({ example: 'correct horse battery staple', maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  password: string;
}

export class SignInResponse {
  @ApiProperty({ example: 1 })
  id: number;

  @ApiProperty({ example: 'operator1' })
  username: string;

  @ApiProperty({ enum: Role, example: Role.OPERATOR })
  role: Role;

  @ApiProperty({ description: 'JWT (HS256) to send as `x-access-token`; valid for 24 hours on this environment only.', example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9…' })
  accessToken: string;
}
