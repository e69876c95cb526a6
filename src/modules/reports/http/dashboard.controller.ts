import { Controller, Get, Query } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { toInt } from '../../../common/http/pagination.js';
import { DashboardService, DayPayments, PaymentsPerDay } from '../application/dashboard.service.js';

export class PaymentsPerDayQuery {
  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: 90, default: 30, description: 'How many business days, ending today.' })
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(90)
  days: number = 30;
}

export class DayPaymentsResponse implements DayPayments {
  @ApiProperty({ example: '2026-03-01', format: 'date' }) date: string;
  @ApiProperty({ type: 'integer', example: 14, description: 'Payments received that business day (deposits included; an imported deal’s opening balance is not cash received and is left out).' }) payments: number;
  @ApiProperty({ example: 420000, description: 'Their sum.' }) amount: number;
}

export class PaymentsPerDayResponse implements PaymentsPerDay {
  @ApiProperty({ example: '2026-02-01', format: 'date' }) startdate: string;
  @ApiProperty({ example: '2026-03-02', format: 'date' }) enddate: string;
  @ApiProperty({ type: [DayPaymentsResponse], description: 'One entry per business day, oldest first, zeros included.' }) days: DayPaymentsResponse[];
}

@ApiTags('Reports')
@Controller('finance/reports')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get('payments-per-day')
  @Endpoint({ summary: 'Payments received per business day', description: 'For the dashboard chart: count and sum per day, the last `days` business days up to today.', roles: [], response: PaymentsPerDayResponse })
  paymentsPerDay(@Query() query: PaymentsPerDayQuery): Promise<PaymentsPerDayResponse> {
    return this.dashboard.paymentsPerDay(query.days);
  }
}
