import { Global, Module } from '@nestjs/common';
import { AuditHook } from './audit.hook.js';
import { AuditWriter } from './audit-writer.js';

@Global()
@Module({
  providers: [AuditWriter, AuditHook],
  exports: [AuditWriter],
})
export class AuditModule {}
