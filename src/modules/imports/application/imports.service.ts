import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AuthUser } from '../../../common/auth/role.js';
import { Slots } from '../../../common/concurrency/slots.js';
import { notFound } from '../../../common/errors/domain-error.js';
import { Page } from '../../../common/http/pagination.js';
import { readCsv } from '../domain/csv-file.js';
import { columnsOf, ERRORS_LISTED_MAX, ImportKind, ImportMode, ImportStatus, parseMapping } from '../domain/import-file.js';
import { ImportRecordRow, ImportsRepository } from '../infrastructure/imports.repository.js';
import { ImportRunner } from './import-runner.js';
import { ImportValidator, Validated } from './import-validator.js';
import { cutText } from '../../../common/identifiers/characters.js';
import { isSerializationFailure } from '../../../common/database/postgres-errors.js';

/** An import as clients see it: the stored record's own fields, with its id, progress and times for people. */
export interface ImportView
  extends Pick<ImportRecordRow, 'kind' | 'mode' | 'source' | 'status' | 'filename' | 'notify' | 'rows' | 'valid' | 'applied' | 'skipped' | 'processed' | 'errorcount' | 'errors' | 'message'> {
  importid: number;
  /** per cent of the rows processed */
  progress: number;
  /** `errors` lists only the first ERRORS_LISTED_MAX of `errorcount` */
  errorstruncated: boolean;
  createdat: string;
  finishedat: string | null;
}

export interface ImportForm {
  kind: ImportKind;
  mode: ImportMode;
  source: string;
  mapping?: string;
  notify: boolean;
}

export function importView(r: ImportRecordRow): ImportView {
  return {
    importid: r.id,
    kind: r.kind,
    mode: r.mode,
    source: r.source,
    status: r.status,
    filename: r.filename,
    notify: r.notify,
    rows: r.rows,
    valid: r.valid,
    applied: r.applied,
    skipped: r.skipped,
    processed: r.processed,
    progress: r.status === ImportStatus.DONE ? 100 : r.rows > 0 ? Math.floor((100 * r.processed) / r.rows) : 0,
    errorcount: r.errorcount,
    errorstruncated: r.errorcount > ERRORS_LISTED_MAX,
    errors: r.errors,
    message: r.message,
    createdat: new Date(r.created_at).toISOString(),
    finishedat: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  };
}

/** A validate that met a concurrent change of a deal is tried again, this many times in all. */
const VALIDATE_ATTEMPTS = 3;

/**
 * Validates running at once in one instance. Each holds a pooled connection (its snapshot) and the
 * CPU for as long as its file takes to check: without a cap, a few dozen sent together took every
 * connection of the pool, and every other request, the provider's callbacks included, got 503.
 */
export const VALIDATES_AT_ONCE = 2;

const importNotFound = (id: number) => notFound('IMPORT_NOT_FOUND', `Import ${id} not found.`);

@Injectable()
export class ImportsService {
  private readonly validating = new Slots(VALIDATES_AT_ONCE, 'IMPORT_VALIDATES_BUSY', `${VALIDATES_AT_ONCE} validations are already running: try again when one has finished.`);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly imports: ImportsRepository,
    private readonly validator: ImportValidator,
    private readonly runner: ImportRunner,
  ) {}

  /**
   * `validate`: every row checked now, nothing written to the book; the record is kept (DONE) with
   * its errors. `apply`: the file is stored as a job and answered at once (`accepted`); a worker
   * validates and applies it in one transaction. The same apply (file, kind, source and mapping)
   * again answers the earlier record and changes nothing, unless that one FAILED: it wrote nothing,
   * so the file is tried again as a new import (once its rows or the book are right).
   */
  async submit(file: { content: Buffer; filename: string }, form: ImportForm, actor: AuthUser): Promise<{ view: ImportView; accepted: boolean }> {
    const mapping = parseMapping(form.mapping, form.kind);
    const filehash = createHash('sha256')
      .update(JSON.stringify([form.kind, form.source, mapping ? Object.entries(mapping).sort() : null]))
      .update('\0')
      .update(file.content)
      .digest('hex');
    const record = { kind: form.kind, mode: form.mode, source: form.source, filename: cutText(file.filename, 255), filehash, mapping, notify: form.notify, createdBy: actor.id };
    if (form.mode === 'validate') {
      const release = this.validating.take();
      let checked: Validated;
      try {
        checked = await this.validateNow(file.content, form.kind, form.source, mapping);
      } finally {
        release();
      }
      const outcome = { status: ImportStatus.DONE, rows: checked.rows, valid: checked.valid, applied: 0, skipped: checked.skipped, errorcount: checked.errorcount, errors: checked.errors };
      const inserted = await this.imports.insert({ ...record, status: ImportStatus.DONE }, outcome, null);
      return { view: importView(inserted!), accepted: false };
    }
    const earlier = await this.imports.findApplyByHash(filehash);
    if (earlier) return { view: importView(earlier), accepted: false };
    // refused now if it is not a UTF-8 CSV file with a header this kind can read; counted for the progress bar
    const csv = await readCsv([file.content], (header) => {
      columnsOf(header, form.kind, mapping);
      return () => undefined;
    });
    const inserted = await this.imports.insert({ ...record, status: ImportStatus.VALIDATING }, { status: ImportStatus.VALIDATING, rows: csv.records, valid: 0, applied: 0, skipped: 0, errorcount: 0, errors: [] }, file.content);
    if (inserted === null) return { view: importView((await this.imports.findApplyByHash(filehash))!), accepted: false };
    this.runner.kick();
    // the record as stored, not as the worker may already have moved it
    return { view: importView(inserted), accepted: true };
  }

  /**
   * A validate in one snapshot of the book, the deal rows read FOR SHARE as registration reads them.
   * A deal changed (deactivated) after the snapshot but before its row is read makes PostgreSQL refuse
   * the read (a serialization failure): that is the database asking to try again, with a new snapshot.
   */
  private async validateNow(content: Buffer, kind: ImportKind, source: string, mapping: Record<string, string> | null): Promise<Validated> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.dataSource.transaction('REPEATABLE READ', (em) => this.validator.validate([content], kind, source, mapping, em));
      } catch (error) {
        if (!isSerializationFailure(error) || attempt >= VALIDATE_ATTEMPTS) throw error;
      }
    }
  }

  async get(id: number): Promise<ImportView> {
    const row = await this.imports.findById(id);
    if (!row) throw importNotFound(id);
    return importView(row);
  }

  async list(page: number, limit: number): Promise<Page<ImportView>> {
    const { rows, total } = await this.imports.list(page, limit);
    return { items: rows.map(importView), total, page, limit };
  }
}
