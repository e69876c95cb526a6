import { Controller, Get } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { DomainError, ErrorKind } from '../../common/errors/domain-error.js';
import { Endpoint } from '../../common/http/endpoint.decorator.js';
import { AppConfig } from '../../config/app-config.js';

class HealthResponse {
  @ApiProperty({ example: 'ok' }) status: string;
  @ApiProperty({ example: 'up' }) database: string;
  @ApiProperty({ example: 'configured', enum: ['configured', 'not configured'] }) mobilemoney: string;
  @ApiProperty({ example: 'not configured', enum: ['configured', 'not configured'] }) devicelock: string;
  @ApiProperty({ example: 'not configured', enum: ['configured', 'not configured'], description: 'SMS gateway; not configured: customer messages wait as PENDING.' }) sms: string;
}

@ApiTags('Operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Endpoint({ summary: 'Liveness and database check', roles: 'public', response: HealthResponse, errors: [503] })
  async check(): Promise<HealthResponse> {
    try {
      await this.health.check([() => this.db.pingCheck('database', { timeout: 3000 })]);
    } catch {
      throw new DomainError(ErrorKind.UNAVAILABLE, 'DATABASE_DOWN', 'Database is not answering.');
    }
    const configured = (url?: string) => (url ? 'configured' : 'not configured');
    return {
      status: 'ok',
      database: 'up',
      mobilemoney: configured(this.config.mobileMoney.url),
      devicelock: configured(this.config.deviceLock.url),
      sms: configured(this.config.sms.url),
    };
  }
}
