import { BeforeApplicationShutdown, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface AuditEntry {
  userId: number | null;
  method: string;
  route: string;
  recordId: string | null;
  status: number;
  requestId: string | null;
  at: Date;
}

const FLUSH_EVERY_MS = 200;
const MAX_BUFFER = 5_000;

/**
 * Writes audit rows in batches off the request path: one multi-row INSERT every 200 ms instead of a
 * round trip per request. The money and device tables carry their own who/when columns, so the
 * audit trail is an index of activity, not the record of truth; a crash loses at most 200 ms of it.
 */
@Injectable()
export class AuditWriter implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('Audit');
  private buffer: AuditEntry[] = [];
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  record(entry: AuditEntry): void {
    if (this.buffer.length >= MAX_BUFFER) this.buffer.shift();
    this.buffer.push(entry);
  }

  /** Writes everything recorded so far, including what came in while an earlier batch was being written. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = this.insert(batch)
      .catch((error: unknown) => {
        this.logger.warn(`audit batch of ${batch.length} not written yet: ${(error as Error).message}`);
        this.buffer = [...batch, ...this.buffer].slice(-MAX_BUFFER);
      })
      .finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async insert(batch: AuditEntry[]): Promise<void> {
    const values: unknown[] = [];
    const rows = batch.map((e, i) => {
      values.push(e.userId, e.method, e.route, e.recordId, e.status, e.requestId, e.at);
      const b = i * 7;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7})`;
    });
    await this.dataSource.query(
      `INSERT INTO audit_log (user_id, method, route, record_id, status, request_id, at) VALUES ${rows.join(', ')}`,
      values,
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    if (this.buffer.length) await this.flush();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }
}
