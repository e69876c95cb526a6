import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who holds a claimed message: the delivery worker writes a token of its own with each claim, and
 * renews the lease only while the row still carries that token, right before each send; a round
 * that outlived its lease (a slow gateway) then leaves a message another instance claimed meanwhile
 * to that instance instead of sending it too. No default, so no row is rewritten.
 */
export class SmsLeaseToken1766534400000 implements MigrationInterface {
  name = 'SmsLeaseToken1766534400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sms_messages ADD COLUMN lease_token uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sms_messages DROP COLUMN lease_token`);
  }
}
