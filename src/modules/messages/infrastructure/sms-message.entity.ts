import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** The SMS outbox (migrations 1765324800000, 1765584000000); read and written with SQL in MessagesRepository. */
@Entity('sms_messages')
@Index('sms_messages_event_key_key', ['eventKey'], { unique: true, where: 'event_key IS NOT NULL' })
export class SmsMessageEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ name: 'customer_id', type: 'integer' }) customerId: number;
  @Column({ name: 'customer_deal_id', type: 'integer', nullable: true }) customerDealId: number | null;
  @Column({ type: 'varchar', length: 20 }) kind: string;
  @Column({ name: 'event_key', type: 'varchar', length: 120, nullable: true }) eventKey: string | null;
  @Column({ name: 'due_date', type: 'date', nullable: true }) dueDate: string | null;
  @Column({ type: 'varchar', length: 5, nullable: true }) language: string | null;
  @Column({ type: 'varchar', length: 1000, nullable: true }) text: string | null;
  @Column({ type: 'varchar', length: 5, nullable: true }) encoding: string | null;
  @Column({ type: 'integer', nullable: true }) segments: number | null;
  @Column({ name: 'payment_id', type: 'bigint', nullable: true }) paymentId: string | null;
  @Column({ type: 'numeric', precision: 14, scale: 2, nullable: true }) amount: string | null;
  @Column({ type: 'numeric', precision: 14, scale: 2, nullable: true }) balance: string | null;
  @Column({ name: 'paid_up_to', type: 'date', nullable: true }) paidUpTo: string | null;
  @Column({ type: 'varchar', length: 12, default: 'PENDING' }) status: string;
  @Column({ type: 'varchar', length: 32, nullable: true }) telephone: string | null;
  @Column({ type: 'integer', default: 0 }) attempts: number;
  @Column({ name: 'next_attempt_at', type: 'timestamptz' }) nextAttemptAt: Date;
  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true }) lastAttemptAt: Date | null;
  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true }) lastError: string | null;
  @Column({ name: 'failure_reason', type: 'varchar', length: 255, nullable: true }) failureReason: string | null;
  @Column({ name: 'gateway_message_id', type: 'varchar', length: 100, nullable: true }) gatewayMessageId: string | null;
  @Column({ type: 'varchar', length: 40, nullable: true }) cost: string | null;
  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true }) sentAt: Date | null;
  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true }) deliveredAt: Date | null;
  @Column({ name: 'created_by', type: 'integer', nullable: true }) createdBy: number | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** A customer's messaging preferences, kept by this module rather than as columns of customers. */
@Entity('customer_preferences')
export class CustomerPreferenceEntity {
  @PrimaryColumn({ name: 'customer_id', type: 'integer' }) customerId: number;
  @Column({ type: 'varchar', length: 5 }) language: string;
  @Column({ name: 'sms_opt_out', type: 'boolean', default: false }) smsOptOut: boolean;
  @Column({ name: 'updated_by', type: 'integer', nullable: true }) updatedBy: number | null;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
