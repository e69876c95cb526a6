import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { PageQuery } from '../../../common/http/pagination.js';
import { IdField, IntField, MoneyField, TextField } from '../../../common/validation/fields.js';
import type { DealView } from '../application/deals.service.js';

export class CreateDealRequest {
  @TextField({ example: 'Tecno Spark 20 – 12 months' })
  dealname: string;

  @MoneyField({ example: 600000, description: 'Full price, deposit included.' })
  totalamount: number;

  @MoneyField({ example: 60000, description: 'Minimum deposit at registration; ≤ totalamount.' })
  deposit: number;

  @MoneyField({ example: 45000, description: 'Instalment per 30 days; deposit + monthly × months ≥ totalamount.' })
  monthly: number;

  @IntField(1, 120, { example: 12 })
  months: number;
}

export class DealIdRequest {
  @IdField({ example: 1 })
  dealid: number;
}

export class DealListQuery extends PageQuery {
  @ApiPropertyOptional({ type: Boolean, description: 'Only active (true) or only deactivated (false) deals.' })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  active?: boolean;
}

export class DealResponse implements DealView {
  @ApiProperty({ type: 'integer', example: 1 }) dealid: number;
  @ApiProperty({ example: 'Tecno Spark 20 – 12 months' }) dealname: string;
  @ApiProperty({ example: 600000 }) totalamount: number;
  @ApiProperty({ example: 60000 }) deposit: number;
  @ApiProperty({ example: 45000 }) monthly: number;
  @ApiProperty({ type: 'integer', example: 12 }) months: number;
  @ApiProperty({ example: true }) active: boolean;
}

export class CreatedDealResponse extends DealResponse {
  @ApiProperty({ example: 'Deal created.' }) message: string;
}

