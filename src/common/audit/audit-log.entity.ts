import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Who changed what and when: one row per successful state-changing request. */
@Entity('audit_log')
export class AuditLogEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @Column({ type: 'varchar', length: 10 })
  method: string;

  @Column({ type: 'varchar', length: 255 })
  route: string;

  @Column({ name: 'record_id', type: 'varchar', length: 100, nullable: true })
  recordId: string | null;

  @Column({ type: 'smallint' })
  status: number;

  @Column({ name: 'request_id', type: 'varchar', length: 100, nullable: true })
  requestId: string | null;

  @Column({ name: 'at', type: 'timestamptz' })
  at: Date;
}
