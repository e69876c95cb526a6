import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuditInterceptor } from './audit.interceptor.js';
import { AuditWriter } from './audit-writer.js';

@Global()
@Module({
  providers: [AuditWriter, { provide: APP_INTERCEPTOR, useClass: AuditInterceptor }],
  exports: [AuditWriter],
})
export class AuditModule {}
