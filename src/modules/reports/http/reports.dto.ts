import { ApiProperty } from '@nestjs/swagger';
import { DateField } from '../../../common/validation/fields.js';

export class PortfolioQuery {
  @DateField({
    optional: true,
    example: '2026-02-01',
    description: 'First day of the collection-rate range (default: 30 days before enddate).',
  })
  startdate?: string;

  @DateField({
    optional: true,
    example: '2026-02-28',
    description: 'Last day of the range (default: today). At most 31 days in all.',
  })
  enddate?: string;
}

export class CollectionRateResponse {
  @ApiProperty({ example: '2026-02-01' }) startdate: string;
  @ApiProperty({ example: '2026-02-28' }) enddate: string;
  @ApiProperty({
    example: 1350000,
    description:
      'Repayments the schedule made due in the range, less what earlier repayments already covered (deposits excluded).',
  })
  due: number;
  @ApiProperty({ example: 1147500, description: 'Repayments received in the range (deposits excluded).' })
  collected: number;
  @ApiProperty({
    example: 0.85,
    nullable: true,
    type: Number,
    description: 'collected ÷ due, 4 decimals; above 1 when customers pay ahead; null when nothing was due.',
  })
  rate: number | null;
}

export class DealsByStatusResponse {
  @ApiProperty({ example: 120 }) LOCKED: number;
  @ApiProperty({ example: 860 }) UNLOCKED: number;
  @ApiProperty({ example: 45 }) PAID_OFF: number;
  @ApiProperty({ example: 3 }) REPOSSESSED: number;
}

export class PortfolioResponse {
  @ApiProperty({ example: '2026-03-01', description: 'The business day the figures are for.' }) asof: string;
  @ApiProperty({ example: 'UGX' }) currency: string;
  @ApiProperty({ example: 980, description: 'Deals still being paid for (LOCKED or UNLOCKED).' })
  activedeals: number;
  @ApiProperty({ example: 412500000, description: 'Sum of the balances of active deals.' })
  outstandingbalance: number;
  @ApiProperty({
    example: 18450000,
    description:
      'Over active deals: what the schedule expected by today (deposit + monthly per started 30 days, capped at the total) and was not paid.',
  })
  amountinarrears: number;
  @ApiProperty({
    example: 21300000,
    description: 'Balance of active deals more than 30 days past their paid-up date.',
  })
  par30balance: number;
  @ApiProperty({
    example: 0.0516,
    description: 'PAR30: par30balance ÷ outstandingbalance, 4 decimals (0 when nothing is outstanding).',
  })
  par30: number;
  @ApiProperty({ type: CollectionRateResponse }) collection: CollectionRateResponse;
  @ApiProperty({ type: DealsByStatusResponse }) dealsbystatus: DealsByStatusResponse;
}
