import { Injectable, Logger } from '@nestjs/common';
import { stringify } from 'csv-stringify';
import { pipeline, Readable, Transform } from 'node:stream';
import pg from 'pg';
import QueryStream from 'pg-query-stream';
import { Slots } from '../../../common/concurrency/slots.js';
import { invalid } from '../../../common/errors/domain-error.js';
import { businessDay } from '../../../common/time/business-date.js';
import { Clock } from '../../../common/time/clock.js';
import { AppConfig } from '../../../config/app-config.js';
import { safeCell } from '../domain/csv-cell.js';
import { ExportQuery, ExportsRepository } from '../infrastructure/exports.repository.js';

/** Rows fetched from PostgreSQL at a time: memory stays flat whatever the size of the table. */
const BATCH_ROWS = 1000;
/** How long an export waits for its connection, as long as a request waits for one from the pool. */
const CONNECT_TIMEOUT_MS = 3000;
/**
 * Exports running at once in one instance. Each holds a PostgreSQL connection of its own for as long as
 * its client takes to read the file: without a cap, one user who opens exports and reads them slowly
 * uses up the server's max_connections, and every request (the provider's callbacks included) fails.
 */
export const EXPORTS_AT_ONCE = 4;

/** Passes rows on; after the first, destroys itself when none has passed for `ms`. */
function stallWatch(ms: number): Transform {
  let timer: NodeJS.Timeout | undefined;
  const watch = new Transform({
    objectMode: true,
    transform(row: unknown, _encoding, done) {
      timer?.refresh();
      timer ??= setTimeout(() => watch.destroy(new Error(`the client read nothing for ${ms / 1000} s`)), ms);
      done(null, row);
    },
    flush(done) {
      clearTimeout(timer);
      done();
    },
    destroy(error, done) {
      clearTimeout(timer);
      done(error);
    },
  });
  return watch;
}

/**
 * CSV exports streamed from PostgreSQL: a cursor (pg-query-stream) read a batch at a time, written
 * by csv-stringify (RFC 4180: CRLF, quotes where needed, line breaks quoted), the HTTP answer
 * pulling it. Each export has a connection of its own, outside the pool and its statement timeout,
 * in one read-only snapshot, so a long export neither holds a request's connection nor sees half a
 * payment.
 */
@Injectable()
export class ExportsService {
  private readonly logger = new Logger(ExportsService.name);
  private readonly running = new Slots(EXPORTS_AT_ONCE, 'EXPORTS_BUSY', `${EXPORTS_AT_ONCE} exports are already running: try again when one has finished.`);

  constructor(
    private readonly queries: ExportsRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  private today(): string {
    return businessDay(this.clock.now(), this.config.businessTimeZone);
  }

  customers(): Promise<Readable> {
    return this.stream(this.queries.customers());
  }

  payments(startdate?: string, enddate?: string): Promise<Readable> {
    if (startdate && enddate && startdate > enddate) throw invalid('BAD_DATE_RANGE', 'startdate must not be after enddate');
    return this.stream(this.queries.payments(startdate ?? null, enddate ?? null, this.config.businessTimeZone));
  }

  collections(): Promise<Readable> {
    return this.stream(this.queries.collections(this.today()));
  }

  portfolio(): Promise<Readable> {
    return this.stream(this.queries.portfolio(this.today()));
  }

  private async stream(query: ExportQuery): Promise<Readable> {
    const release = this.running.take();
    // gives up on a database that does not answer as the pool does (3 s, then 503), and notices a vanished one (keep-alive)
    const client = new pg.Client({ connectionString: this.config.database.url, statement_timeout: 0, application_name: 'payg-export', connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    try {
      await client.connect();
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    } catch (error) {
      await client.end().catch(() => undefined);
      release();
      throw error;
    }
    const rows = client.query(new QueryStream(query.sql, query.params, { batchSize: BATCH_ROWS, rowMode: 'array' }));
    const csv = stringify({
      header: true,
      columns: query.columns,
      record_delimiter: 'windows',
      quoted_match: /[\r\n]/,
      cast: {
        string: safeCell,
        date: (d) => d.toISOString(),
        number: (n) => String(n),
        boolean: (b) => String(b),
      },
    });
    // a client that stops reading but keeps its connection would otherwise keep its place among
    // EXPORTS_AT_ONCE, its connection and its snapshot (which holds back PostgreSQL's clean-up of every
    // table) for as long as the connection lasts: EXPORT_STALL_SECONDS without a row taken ends it
    pipeline(rows, stallWatch(this.config.exportStallSeconds * 1000), csv, (error) => {
      if (error && error.message !== 'Premature close') this.logger.warn(`export stopped: ${error.message}`);
      void client
        .query('ROLLBACK')
        .catch(() => undefined)
        .finally(() => void client.end().catch(() => undefined).finally(release));
    });
    return csv;
  }
}
