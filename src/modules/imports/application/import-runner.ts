import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Role } from '../../../common/auth/role.js';
import { DomainError } from '../../../common/errors/domain-error.js';
import { isDatabaseUnavailable } from '../../../common/errors/http-error.js';
import { Scheduled } from '../../../common/jobs/job-scheduler.js';
import { PaymentType } from '../../accounts/domain/payment-type.js';
import { CustomersService } from '../../customers/application/customers.service.js';
import { ContractsService } from '../../contracts/application/contracts.service.js';
import { MessagesService } from '../../messages/application/messages.service.js';
import { ImportStatus } from '../domain/import-file.js';
import { ImportOutcome, ImportRecordRow, ImportsRepository } from '../infrastructure/imports.repository.js';
import { CheckedChunk, ImportValidator } from './import-validator.js';

/** A file that kills its instance every time it is applied stops being retried after this many starts. */
export const MAX_ATTEMPTS = 3;
const POLL_MS = 2000;

/**
 * Works through stored apply jobs, one at a time per instance and one at a time across instances.
 * Each job is validated and applied inside ONE transaction that also holds the job's row lock
 * (FOR UPDATE SKIP LOCKED): the book gets all of a file or none of it. An instance killed mid-way
 * loses its session, PostgreSQL rolls the work back and frees the job, and the next poll of any
 * instance (this one after its restart included) starts it again from the top. Progress and status
 * are written beside the transaction, so they are seen while it runs.
 */
@Injectable()
export class ImportRunner implements OnModuleDestroy {
  private readonly logger = new Logger(ImportRunner.name);
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly imports: ImportsRepository,
    private readonly validator: ImportValidator,
    private readonly customers: CustomersService,
    private readonly contracts: ContractsService,
    private readonly messages: MessagesService,
  ) {}

  /** Looks for stored jobs every POLL_MS and at start, whatever JOBS_ENABLED says: an import is work a user asked for. */
  @Scheduled('import-jobs', () => ({ everyMs: POLL_MS, firstAfterMs: 0, evenWhenJobsDisabled: true }))
  async poll(): Promise<void> {
    this.kick();
    await this.running;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** Looks for work now (after a submission), or right after the current job. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopped && (await this.runOne())) {
        // next job
      }
    } catch (error) {
      if (!isDatabaseUnavailable(error)) this.logger.error(`import worker: ${(error as Error).message}`);
    }
  }

  /** One job, start to end; false when there was none to take. */
  async runOne(): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      const job = await this.imports.claim(em);
      if (!job || !(await this.imports.tryApplyLock(em))) return false;
      const record = await this.imports.started(job.import_id);
      if (record.attempts > MAX_ATTEMPTS) {
        const message = `Stopped after ${MAX_ATTEMPTS} attempts that did not finish (an instance stopped or an unexpected error, see the log). Nothing of it was written.`;
        await this.imports.finish(record.id, { status: ImportStatus.FAILED, rows: record.rows, valid: 0, applied: 0, skipped: 0, errorcount: 0, errors: [], message }, em);
        return true;
      }
      await em.query('SAVEPOINT import_apply');
      try {
        await this.imports.finish(record.id, await this.apply(em, record), em);
      } catch (error) {
        if (!(error instanceof DomainError) || isDatabaseUnavailable(error)) throw error;
        // a clash the checks could not see (another request took a PAYG code meanwhile): nothing of the file stays
        await em.query('ROLLBACK TO SAVEPOINT import_apply');
        await this.imports.finish(record.id, { status: ImportStatus.FAILED, rows: record.rows, valid: 0, applied: 0, skipped: 0, errorcount: 0, errors: [], message: `Nothing was applied: ${error.message}` }, em);
      }
      return true;
    });
  }

  /** Two passes over the stored file, each reading it a slice at a time: check all of it, then check and write chunk by chunk. */
  private async apply(em: EntityManager, record: ImportRecordRow): Promise<ImportOutcome> {
    const checked = await this.validator.validate(this.imports.storedFile(record.id, em), record.kind, record.source, record.mapping, em, {
      progress: (rows) => this.imports.progress(record.id, ImportStatus.VALIDATING, rows),
    });
    const counts = { rows: checked.rows, valid: checked.valid, skipped: checked.skipped };
    const outcome = { ...counts, errorcount: checked.errorcount, errors: checked.errors };
    if (checked.errorcount > 0) return { ...outcome, status: ImportStatus.FAILED, applied: 0, message: 'Nothing was applied: correct the rows listed and upload the file again.' };
    await this.imports.progress(record.id, ImportStatus.APPLYING, 0, counts);
    let applied = 0;
    let processed = 0;
    await this.validator.validate(this.imports.storedFile(record.id, em), record.kind, record.source, record.mapping, em, {
      apply: async (chunk) => {
        applied += await this.applyChunk(em, record, chunk);
        processed += chunk.customers.length + chunk.payments.length + chunk.skipped;
        await this.imports.progress(record.id, ImportStatus.APPLYING, processed);
      },
    });
    return { ...outcome, status: ImportStatus.DONE, applied, message: null };
  }

  /**
   * One checked chunk: customers in a handful of many-row statements (customers, their contracts,
   * ledger rows, device commands and this import's row records); payments one by one through the
   * credit policy (each locks and changes its deal). All in the import's one transaction.
   */
  private async applyChunk(em: EntityManager, record: ImportRecordRow, chunk: CheckedChunk): Promise<number> {
    const actor = { id: record.created_by ?? 1, username: 'import', role: Role.ADMIN };
    if (chunk.customers.length > 0) {
      const ids = await this.customers.registerImported(
        em,
        chunk.customers.map((r) => ({ ...r, openingReference: `IMPORT-${record.id}-${r.externalid}` })),
        actor,
        {
          notify: record.notify,
          // before the contracts open: a welcome (notify=true) is worded in the language the file gives
          beforeOpened: (ids) => this.messages.importPreferences(em, chunk.customers.map((r, i) => ({ customerId: ids[i], language: r.language, optOut: r.smsoptout })), actor.id),
        },
      );
      await this.imports.insertRows(em, record.id, record.source, record.kind, chunk.customers.map((r, i) => ({ externalid: r.externalid, row: r.row, customerId: ids[i], paymentId: null })));
    }
    const results = [];
    for (const r of chunk.payments) {
      const credited = await this.contracts.credit(em, { customerId: r.customerid!, amount: r.amount, reference: r.reference, narration: r.narration, type: PaymentType.MANUAL, createdBy: actor.id, notify: record.notify });
      results.push({ externalid: r.externalid, row: r.row, customerId: r.customerid, paymentId: String(credited.payment.paymentid) });
    }
    await this.imports.insertRows(em, record.id, record.source, record.kind, results);
    return chunk.customers.length + chunk.payments.length;
  }
}
