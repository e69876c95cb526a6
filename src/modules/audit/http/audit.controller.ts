import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '../../../common/http/endpoint.decorator.js';
import { Page, PageOf } from '../../../common/http/pagination.js';
import { AuditService } from '../application/audit.service.js';
import { AuditEntryResponse, AuditQuery } from './audit.dto.js';

@ApiTags('History')
@Controller('finance/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @Endpoint({
    summary: 'The audit log: who changed what, and when',
    description:
      'Every successful state-changing request, newest first, paged; filter by staff user, customer, record, route and a range of business days. Reads are not logged.',
    roles: [],
    response: PageOf(AuditEntryResponse),
  })
  list(@Query() query: AuditQuery): Promise<Page<AuditEntryResponse>> {
    const { page, limit, ...filter } = query;
    return this.audit.list(filter, page, limit);
  }
}
