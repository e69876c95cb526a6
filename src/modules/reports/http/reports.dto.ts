import { ApiProperty } from '@nestjs/swagger';
import { DateField } from '../../../common/validation/fields.js';
import { CollectionRate, DealsByStatus, PortfolioReport } from '../application/reports.service.js';

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
    description: 'Last day of the range (default: today, or, when only startdate is given, 30 days after it if that is earlier). At most 31 days in all.',
  })
  enddate?: string;
}

export class CollectionRateResponse implements CollectionRate {
  @ApiProperty({ format: 'date', example: '2026-02-01' }) startdate: string;
  @ApiProperty({ format: 'date', example: '2026-02-28' }) enddate: string;
  @ApiProperty({
    example: 1350000,
    description:
      'What fell due in the range, summed over every deal that started by its end. The schedule: repayment instalment k (k = 1, 2, …) of `monthly` falls due on startdate + 30 × (k − 1) days (the day the lock rule locks a deal that has not paid it; the deposit, paid at registration, is not an instalment), all instalments together capped at totalamount − depositpaid; bonus days do not move it. A deal’s share: the instalments due by the end of the range (by today, for a range that runs past today: an instalment still ahead has not fallen due; or by the day it was repossessed, if earlier), less the larger of those due before the range and the repayments it had made before the range, an imported deal’s opening balance included (so a customer who paid ahead, or paid off, owes nothing more), never below 0. Deals repossessed before the range are left out, and so are deals an import brought in already repossessed (the old book took them back on a day it does not say); a deal repossessed later counts in full, so a past range’s figure never changes.',
  })
  due: number;
  @ApiProperty({
    example: 1147500,
    description:
      'Cash received as repayment in the range (every payment except deposits and imported opening balances, by the business day it arrived), on every deal whatever its status now: repossessed and paid-off deals included, overpayments included.',
  })
  collected: number;
  @ApiProperty({
    example: 0.85,
    nullable: true,
    type: Number,
    description:
      'Collection rate: collected ÷ due, 4 decimals; above 1 when customers pay ahead or catch up; null when nothing was due.',
  })
  rate: number | null;
}

/** Deals counted by their status today; every status is listed, zeros included. */
export class DealsByStatusResponse implements DealsByStatus {
  @ApiProperty({ type: 'integer', example: 120 }) LOCKED: number;
  @ApiProperty({ type: 'integer', example: 860 }) UNLOCKED: number;
  @ApiProperty({ type: 'integer', example: 45 }) PAID_OFF: number;
  @ApiProperty({ type: 'integer', example: 3 }) REPOSSESSED: number;
}

export class PortfolioResponse implements PortfolioReport {
  @ApiProperty({ format: 'date', example: '2026-03-01', description: 'The business day the figures are for.' }) asof: string;
  @ApiProperty({ example: 'UGX' }) currency: string;
  @ApiProperty({
    type: 'integer',
    example: 980,
    description: 'Active deals: those still being paid for (LOCKED or UNLOCKED).',
  })
  activedeals: number;
  @ApiProperty({
    example: 412500000,
    description: 'The active portfolio: sum of the balances (totalamount − amountpaid) of active deals.',
  })
  outstandingbalance: number;
  @ApiProperty({
    example: 18450000,
    description:
      'Over active deals: what their customers must pay for every device to be UNLOCKED again — per deal, the cost of the days from its start date to today inclusive, less bonus days, at monthly per 30 days rounded up to the cent, less its repayments beyond the deposit; 0 when its paid-up date is after today; never more than its balance (the collection call’s amountinarrears).',
  })
  amountinarrears: number;
  @ApiProperty({
    example: 21300000,
    description:
      'Balance of active deals more than 30 days past due: today − nextpaymentdate > 30 (the paid-up date, the day the device locks, is day 0 past due).',
  })
  par30balance: number;
  @ApiProperty({
    example: 0.0516,
    description:
      'PAR30 (portfolio at risk, 30 days), as the industry defines it: par30balance ÷ outstandingbalance — both over active deals only — 4 decimals (0 when nothing is outstanding). Repossessed and written-off balances are not in it; they have their own lines.',
  })
  par30: number;
  @ApiProperty({ type: 'integer', example: 3, description: 'Deals repossessed (the same as dealsbystatus.REPOSSESSED).' })
  repossesseddeals: number;
  @ApiProperty({
    example: 1620000,
    description:
      'Sum of the balances still owed on repossessed deals (payments made after repossession are still recorded and reduce it). Outside the active portfolio, so neither in outstandingbalance nor in PAR30, and never dropped.',
  })
  repossessedbalance: number;
  @ApiProperty({
    example: 0,
    description:
      'Balances written off: removed from what is expected by an explicit write-off decision. The service has no write-off yet — a repossession is not one, its balance is still owed and is shown under repossessedbalance — so this line is 0 until write-offs exist.',
  })
  writtenoffbalance: number;
  @ApiProperty({
    example: 414120000,
    description:
      'Every deal’s balance summed, whatever its status (paid-off deals have 0): outstandingbalance + repossessedbalance + writtenoffbalance, so that nothing owed leaves the report unseen.',
  })
  bookbalance: number;
  @ApiProperty({ type: CollectionRateResponse }) collection: CollectionRateResponse;
  @ApiProperty({ type: DealsByStatusResponse }) dealsbystatus: DealsByStatusResponse;
}
