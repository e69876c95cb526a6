import { Controller, Get, Module } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { Endpoint } from '../../common/http/endpoint.decorator.js';
import { AppConfig } from '../../config/app-config.js';

export class ClientConfigResponse {
  @ApiProperty({ example: 'UGX', description: 'ISO 4217 code amounts are shown in (CURRENCY).' }) currency: string;
  @ApiProperty({ example: 'Africa/Kampala', description: 'IANA time zone whose calendar day decides due dates (BUSINESS_TIMEZONE); dates and times are shown in it.' })
  timezone: string;
  @ApiProperty({ enum: ['production', 'uat'], example: 'uat', description: 'The deployment (APP_ENV), shown so that nobody mistakes production for the sandbox.' })
  env: string;
}

/** What the web client needs before anyone signs in: how to show amounts and dates. Nothing secret. */
@ApiTags('Web client')
@Controller('api/client-config')
export class ClientConfigController {
  constructor(private readonly config: AppConfig) {}

  @Get()
  @Endpoint({ summary: 'Settings the web client shows amounts and dates with', roles: 'public', response: ClientConfigResponse, database: false })
  get(): ClientConfigResponse {
    return { currency: this.config.currency, timezone: this.config.businessTimeZone, env: this.config.env };
  }
}

@Module({ controllers: [ClientConfigController] })
export class ClientConfigModule {}
