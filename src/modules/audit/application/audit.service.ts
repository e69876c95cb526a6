import { Injectable } from '@nestjs/common';
import { DomainError, ErrorKind } from '../../../common/errors/domain-error.js';
import { AuditWriter } from '../../../common/audit/audit-writer.js';
import { Page } from '../../../common/http/pagination.js';
import { AppConfig } from '../../../config/app-config.js';
import { AuditFilter, AuditLogRepository, AuditRow } from '../infrastructure/audit-log.repository.js';

/** An audit entry as the API shows it: the row, with its bigint id as a number and its time as ISO text. */
export type AuditEntryView = Omit<AuditRow, 'auditid' | 'at'> & { auditid: number; at: string };

/** The audit trail, read: who changed what and when, for reviewers and a customer's History. */
@Injectable()
export class AuditService {
  constructor(
    private readonly log: AuditLogRepository,
    private readonly writer: AuditWriter,
    private readonly config: AppConfig,
  ) {}

  async list(filter: Omit<AuditFilter, 'timeZone'>, page: number, limit: number): Promise<Page<AuditEntryView>> {
    if (filter.startdate && filter.enddate && filter.startdate > filter.enddate) {
      throw new DomainError(ErrorKind.INVALID, 'DATE_RANGE', 'startdate must not be after enddate');
    }
    // The writer batches rows every 200 ms: what this instance did a moment ago is included.
    await this.writer.flush();
    const { rows, total } = await this.log.list({ ...filter, timeZone: this.config.businessTimeZone }, page, limit);
    return {
      items: rows.map((r) => ({ ...r, auditid: Number(r.auditid), at: r.at.toISOString() })),
      total,
      page,
      limit,
    };
  }
}
