import { Module } from '@nestjs/common';
import { AuditService } from './application/audit.service.js';
import { AuditController } from './http/audit.controller.js';
import { AuditLogRepository } from './infrastructure/audit-log.repository.js';

/** Reading the audit trail that src/common/audit writes (GET /finance/audit). */
@Module({
  controllers: [AuditController],
  providers: [AuditService, AuditLogRepository],
})
export class AuditReadModule {}
