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
      'Active deals, outstanding balance, amount in arrears, PAR30 (share of the outstanding balance on deals more than 30 days overdue), the collection rate of a range of business days (collected ÷ due; at most 31 days, startdate ≤ enddate) and the number of deals in each status. Computed in SQL over the whole portfolio. ADMIN only (DESIGN part 3 gives reports to no other role).',
    roles: [],
    response: PortfolioResponse,
  })
  portfolio(@Query() query: PortfolioQuery): Promise<PortfolioResponse> {
    return this.reports.portfolioReport(query);
  }
}
