import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ImportKind, ImportMode, ImportStatus, RowError } from '../domain/import-file.js';
import { cutText } from '../../../common/identifiers/characters.js';

/** One row of `imports`. */
export interface ImportRecordRow {
  id: number;
  kind: ImportKind;
  mode: ImportMode;
  source: string;
  status: ImportStatus;
  filename: string;
  mapping: Record<string, string> | null;
  notify: boolean;
  rows: number;
  valid: number;
  applied: number;
  skipped: number;
  processed: number;
  errorcount: number;
  errors: RowError[];
  message: string | null;
  attempts: number;
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

export interface NewImport {
  kind: ImportKind;
  mode: ImportMode;
  source: string;
  status: ImportStatus;
  filename: string;
  filehash: string;
  mapping: Record<string, string> | null;
  notify: boolean;
  createdBy: number;
}

export interface ImportOutcome {
  status: ImportStatus;
  rows: number;
  valid: number;
  applied: number;
  skipped: number;
  errorcount: number;
  /** the first ERRORS_LISTED_MAX by row (RowErrors): what the record keeps */
  errors: RowError[];
  message?: string | null;
}

/** The job an instance holds (row-locked) for the whole of its apply transaction; its file is read with `storedFile`. */
export interface ClaimedJob {
  import_id: number;
}

/**
 * A stored file is read back in slices of this size: a 50 MB file never becomes one 100 MB hex
 * answer (which the connection's read buffer would keep for its lifetime) or one string.
 */
export const FILE_SLICE_BYTES = 1 << 20;

const RECORD_COLUMNS = `id, kind, mode, source, status, filename, mapping, notify, rows, valid, applied, skipped, processed, errorcount, errors, message, attempts, created_by, created_at, updated_at, finished_at`;

@Injectable()
export class ImportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private q(em?: EntityManager) {
    return em ?? this.dataSource.manager;
  }

  /**
   * A new record; for an apply whose file (hash) another apply holds, nothing is written and null
   * answered. An apply that FAILED wrote nothing and holds its file no longer: the same one again is a new import.
   */
  async insert(r: NewImport, outcome: ImportOutcome | null, content: Buffer | null): Promise<ImportRecordRow | null> {
    return this.dataSource.transaction(async (em) => {
      // a finished record (a validate) has processed all its rows; an apply starts at none
      const rows = (await em.query(
        `INSERT INTO imports (kind, mode, source, status, filename, filehash, mapping, notify, created_by, rows, valid, applied, skipped, processed, errorcount, errors, finished_at)
         VALUES ($1, $2, $3, $4::varchar, $5, $6, $7, $8, $9, $10, $11, 0, $12, CASE WHEN $4::varchar IN ('DONE', 'FAILED') THEN $10 ELSE 0 END, $13, $14, CASE WHEN $4::varchar IN ('DONE', 'FAILED') THEN now() END)
         ON CONFLICT (filehash) WHERE mode = 'apply' AND status <> 'FAILED' DO NOTHING RETURNING ${RECORD_COLUMNS}`,
        [r.kind, r.mode, r.source, outcome?.status ?? r.status, r.filename, r.filehash, r.mapping ? JSON.stringify(r.mapping) : null, r.notify, r.createdBy,
          outcome?.rows ?? 0, outcome?.valid ?? 0, outcome?.skipped ?? 0, outcome?.errorcount ?? 0, JSON.stringify(outcome?.errors ?? [])],
      )) as ImportRecordRow[];
      if (!rows[0]) return null;
      if (content) await em.query('INSERT INTO import_jobs (import_id, content) VALUES ($1, $2)', [rows[0].id, content]);
      return rows[0];
    });
  }

  /** The apply of this file that applied or is under way (a FAILED one is not it). */
  async findApplyByHash(filehash: string): Promise<ImportRecordRow | null> {
    const rows = (await this.q().query(`SELECT ${RECORD_COLUMNS} FROM imports WHERE filehash = $1 AND mode = 'apply' AND status <> 'FAILED'`, [filehash])) as ImportRecordRow[];
    return rows[0] ?? null;
  }

  async findById(id: number): Promise<ImportRecordRow | null> {
    const rows = (await this.q().query(`SELECT ${RECORD_COLUMNS} FROM imports WHERE id = $1`, [id])) as ImportRecordRow[];
    return rows[0] ?? null;
  }

  /** Newest first; the errors are left out of a listing (they are in each record). */
  async list(page: number, limit: number): Promise<{ rows: ImportRecordRow[]; total: number }> {
    const rows = (await this.q().query(
      `SELECT ${RECORD_COLUMNS.replace('errors,', `'[]'::jsonb AS errors,`)}, count(*) OVER ()::int AS total FROM imports ORDER BY id DESC LIMIT $1 OFFSET $2`,
      [limit, (page - 1) * limit],
    )) as Array<ImportRecordRow & { total: number }>;
    const total = rows[0]?.total ?? ((await this.q().query('SELECT count(*)::int AS n FROM imports')) as Array<{ n: number }>)[0].n;
    return { rows, total };
  }

  /**
   * Takes the oldest job nobody holds, locked until `em`'s transaction ends: a killed instance's
   * job is free again when PostgreSQL ends its session, and its writes are rolled back with it.
   */
  async claim(em: EntityManager): Promise<ClaimedJob | null> {
    const rows = (await em.query('SELECT import_id FROM import_jobs ORDER BY import_id LIMIT 1 FOR UPDATE SKIP LOCKED')) as ClaimedJob[];
    return rows[0] ?? null;
  }

  /** The file of a claimed job, FILE_SLICE_BYTES at a time, read in the claiming transaction. */
  async *storedFile(importId: number, em: EntityManager): AsyncGenerator<Buffer> {
    for (let from = 1; ; from += FILE_SLICE_BYTES) {
      const [{ slice }] = (await em.query('SELECT substring(content FROM $2 FOR $3) AS slice FROM import_jobs WHERE import_id = $1', [importId, from, FILE_SLICE_BYTES])) as Array<{ slice: Buffer }>;
      if (slice.length > 0) yield slice;
      if (slice.length < FILE_SLICE_BYTES) return;
    }
  }

  /** Applies are serialised across instances (one book, one bulk load at a time): false when another holds the lock. */
  async tryApplyLock(em: EntityManager): Promise<boolean> {
    const [{ locked }] = (await em.query('SELECT pg_try_advisory_xact_lock(1765411200) AS locked')) as Array<{ locked: boolean }>;
    return locked;
  }

  /** Outside the apply transaction, so that it is seen at once and survives a crash (attempts count the starts). */
  async started(id: number): Promise<ImportRecordRow> {
    const rows = (await this.q().query(
      `UPDATE imports SET status = 'VALIDATING', attempts = attempts + 1, processed = 0, updated_at = now() WHERE id = $1 RETURNING ${RECORD_COLUMNS}`,
      [id],
    )) as [ImportRecordRow[], number];
    return rows[0][0];
  }

  async progress(id: number, status: ImportStatus, processed: number, counts?: { rows: number; valid: number; skipped: number }): Promise<void> {
    await this.q().query(
      `UPDATE imports SET status = $2, processed = $3, rows = coalesce($4, rows), valid = coalesce($5, valid), skipped = coalesce($6, skipped), updated_at = now() WHERE id = $1`,
      [id, status, processed, counts?.rows ?? null, counts?.valid ?? null, counts?.skipped ?? null],
    );
  }

  /** The outcome, written in the apply transaction (or on its own after a failure), and the job done. */
  async finish(id: number, o: ImportOutcome, em?: EntityManager): Promise<void> {
    await this.q(em).query(
      `UPDATE imports SET status = $2, rows = $3, valid = $4, applied = $5, skipped = $6, processed = $3, errorcount = $7, errors = $8, message = $9, updated_at = now(), finished_at = now() WHERE id = $1`,
      [id, o.status, o.rows, o.valid, o.applied, o.skipped, o.errorcount, JSON.stringify(o.errors), typeof o.message === 'string' ? cutText(o.message, 1000) : null],
    );
    await this.q(em).query('DELETE FROM import_jobs WHERE import_id = $1', [id]);
  }

  /** Which of these externalids a source already brought in for this kind. */
  async knownExternalIds(source: string, kind: ImportKind, externalids: string[], em: EntityManager): Promise<Set<string>> {
    const rows = (await em.query('SELECT externalid FROM import_rows WHERE source = $1 AND kind = $2 AND externalid = ANY($3)', [source, kind, externalids])) as Array<{ externalid: string }>;
    return new Set(rows.map((r) => r.externalid));
  }

  /** What each applied row became, many rows a statement. */
  async insertRows(em: EntityManager, importId: number, source: string, kind: ImportKind, rows: Array<{ externalid: string; row: number; customerId: number | null; paymentId: string | null }>): Promise<void> {
    if (rows.length === 0) return;
    await em.query(
      `INSERT INTO import_rows (import_id, source, kind, externalid, row, customer_id, payment_id)
       SELECT $1, $2, $3, e, r, c, p FROM unnest($4::text[], $5::int[], $6::int[], $7::bigint[]) AS u(e, r, c, p)`,
      [importId, source, kind, rows.map((r) => r.externalid), rows.map((r) => r.row), rows.map((r) => r.customerId), rows.map((r) => r.paymentId)],
    );
  }
}
