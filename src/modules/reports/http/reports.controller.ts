import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { ReportsService } from '../application/reports.service.js';
import { PortfolioQuery, PortfolioResponse } from './reports.dto.js';

@ApiTags('Reports')
@Controller('finance/reports')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('portfolio')
  @Endpoint({
    summary: 'Portfolio figures',
    description:
      'Figures for today (the business day) and for a range of business days. Active deals are those LOCKED or UNLOCKED; the active portfolio is the sum of their balances (outstandingbalance). PAR30 = balance of active deals more than 30 days past due (today − nextpaymentdate > 30) ÷ outstandingbalance. Repossessed balances (still owed, payments still recorded) and written-off balances (no write-off exists yet: 0) are on lines of their own, outside PAR30, and bookbalance sums every deal’s balance, so nothing owed is silently dropped. Amount in arrears = what brings every active device back to UNLOCKED. Collection rate of the range (at most 31 days, startdate ≤ enddate; default the 31 days up to today) = cash received as repayment in the range, on any deal (deposits excluded) ÷ what fell due in it, up to today, under the schedule (instalment k of monthly on startdate + 30 × (k − 1) days, capped at the total, less what repayments before the range already covered); deals repossessed before the range are left out, later ones stay, so a past range’s figure never changes. Counts of deals by status. Each field’s definition is in the response schema. Computed in SQL over the whole portfolio. ADMIN only (DESIGN part 3 gives reports to no other role).',
    roles: [],
    response: PortfolioResponse,
  })
  portfolio(@Query() query: PortfolioQuery): Promise<PortfolioResponse> {
    return this.reports.portfolioReport(query);
  }
}
