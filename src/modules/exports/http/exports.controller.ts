import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Readable } from 'node:stream';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { EXPORTS_AT_ONCE, ExportsService } from '../application/exports.service.js';
import { PaymentsExportQuery } from './exports.dto.js';

const CSV_RULES =
  `RFC 4180 CSV (UTF-8, CRLF, header row), streamed from one database snapshot. A cell starting with =, +, -, @, a tab or a carriage return is written with a leading ' (CSV injection), and so is one starting with '; imports read it back without. ADMIN only: a file of the whole book (telephones, guarantors) is not an everyday operator tool. At most ${EXPORTS_AT_ONCE} exports run at once in each instance of the service (each holds a database connection while its file is read): another one meanwhile → 429; an export whose client reads nothing for EXPORT_STALL_SECONDS (60 s unless set) is ended, and its file is cut short.`;

const csvFile = (stream: Readable, name: string) => new StreamableFile(stream, { type: 'text/csv; charset=utf-8', disposition: `attachment; filename="${name}"` });

@ApiTags('Exports')
@Controller('finance/exports')
export class ExportsController {
  constructor(private readonly exports: ExportsService) {}

  @Get('customers.csv')
  @Endpoint({ summary: 'Customers with their deal, as CSV', description: `The columns of a customers import first (externalid is the import’s, else the account number; where two customers would share one, @ and the account number follow it, so no two rows share one), then the rest of the customer and deal, then language and smsoptout (the customer’s message preferences, empty where none were set; an import takes them back). ${CSV_RULES}`, roles: [], produces: 'text/csv', errors: [429] })
  async customers(): Promise<StreamableFile> {
    return csvFile(await this.exports.customers(), 'customers.csv');
  }

  @Get('payments.csv')
  @Endpoint({ summary: 'Payments in a range of business days, as CSV', description: `Every ledger row (DEPOSIT, MANUAL, MOBILE_MONEY, OPENING) whose business day is within startdate–enddate, oldest first. ${CSV_RULES}`, roles: [], produces: 'text/csv', errors: [429] })
  async payments(@Query() query: PaymentsExportQuery): Promise<StreamableFile> {
    return csvFile(await this.exports.payments(query.startdate, query.enddate), 'payments.csv');
  }

  @Get('collections.csv')
  @Endpoint({ summary: 'Collection calls, as CSV', description: `Every call with its customer, arrears, assignee and outcome. ${CSV_RULES}`, roles: [], produces: 'text/csv', errors: [429] })
  async collections(): Promise<StreamableFile> {
    return csvFile(await this.exports.collections(), 'collections.csv');
  }

  @Get('portfolio.csv')
  @Endpoint({
    summary: 'The portfolio as a loan tape, as CSV',
    description: `One line per deal as of today: terms, amount paid, balance, paid-up date, days past it and the arrears bucket (CURRENT, 1-30, 31-60, 61-90, 90+; PAID_OFF and REPOSSESSED on their own). PAR30 = balance in buckets beyond 30 days ÷ balance of LOCKED and UNLOCKED deals. ${CSV_RULES}`,
    roles: [],
    produces: 'text/csv',
    errors: [429],
  })
  async portfolio(): Promise<StreamableFile> {
    return csvFile(await this.exports.portfolio(), 'portfolio.csv');
  }
}
