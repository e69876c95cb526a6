import { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomersDealsLedger1764547200000 implements MigrationInterface {
  name = 'CustomersDealsLedger1764547200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE deals (
        id serial PRIMARY KEY,
        dealname varchar(255) NOT NULL,
        totalamount numeric(14,2) NOT NULL CHECK (totalamount > 0),
        deposit numeric(14,2) NOT NULL CHECK (deposit > 0 AND deposit <= totalamount),
        monthly numeric(14,2) NOT NULL CHECK (monthly > 0),
        months integer NOT NULL CHECK (months BETWEEN 1 AND 120),
        active boolean NOT NULL DEFAULT true,
        created_by integer REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (deposit + monthly * months >= totalamount)
      )`);

    await q.query(`
      CREATE TABLE accounts (
        id serial PRIMARY KEY,
        accountnumber varchar(20) NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE customers (
        id serial PRIMARY KEY,
        user_id integer NOT NULL UNIQUE REFERENCES users(id),
        account_id integer NOT NULL UNIQUE REFERENCES accounts(id),
        fullname varchar(255) NOT NULL,
        telephone varchar(32) NOT NULL,
        guarantorname varchar(255) NOT NULL,
        guarantorcontact varchar(255) NOT NULL,
        imei varchar(32) NOT NULL,
        payg varchar(64) NOT NULL,
        serialnumber varchar(255),
        salesstage varchar(20) NOT NULL DEFAULT 'ENROLLMENT' CHECK (salesstage IN ('ENROLLMENT', 'VERIFICATION', 'DELIVERY', 'ACTIVE', 'CLOSED')),
        status varchar(20) NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REPOSSESSED')),
        created_by integer REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The unique keys that make two concurrent registrations of one phone impossible.
    await q.query(`CREATE UNIQUE INDEX customers_telephone_key ON customers (telephone)`);
    await q.query(`CREATE UNIQUE INDEX customers_imei_key ON customers (imei)`);
    await q.query(`CREATE UNIQUE INDEX customers_payg_key ON customers (payg)`);
    await q.query(`CREATE INDEX customers_status_idx ON customers (status)`);
    await q.query(`CREATE INDEX customers_fullname_idx ON customers (lower(fullname) varchar_pattern_ops)`);

    await q.query(`
      CREATE TABLE customer_deals (
        id serial PRIMARY KEY,
        customer_id integer NOT NULL UNIQUE REFERENCES customers(id),
        deal_id integer NOT NULL REFERENCES deals(id),
        dealname varchar(255) NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'LOCKED' CHECK (status IN ('LOCKED', 'UNLOCKED', 'PAID_OFF', 'REPOSSESSED')),
        totalamount numeric(14,2) NOT NULL CHECK (totalamount > 0),
        monthly numeric(14,2) NOT NULL CHECK (monthly > 0),
        depositpaid numeric(14,2) NOT NULL CHECK (depositpaid > 0),
        amountpaid numeric(14,2) NOT NULL CHECK (amountpaid >= 0),
        balance numeric(14,2) NOT NULL CHECK (balance >= 0),
        overpaid numeric(14,2) NOT NULL DEFAULT 0 CHECK (overpaid >= 0),
        bonusdays integer NOT NULL DEFAULT 0 CHECK (bonusdays >= 0),
        startdate date NOT NULL,
        nextpaymentdate date NOT NULL,
        repossessed_at timestamptz,
        repossession_reason varchar(255),
        repossessed_by integer REFERENCES users(id),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (balance + amountpaid - overpaid = totalamount)
      )`);
    await q.query(`CREATE INDEX customer_deals_due_idx ON customer_deals (nextpaymentdate) WHERE status IN ('LOCKED', 'UNLOCKED')`);
    await q.query(`CREATE INDEX customer_deals_status_idx ON customer_deals (status)`);

    // The ledger: one immutable row per payment; balances are derived from it and checked against it.
    await q.query(`
      CREATE TABLE payments (
        id bigserial PRIMARY KEY,
        customer_id integer NOT NULL REFERENCES customers(id),
        customer_deal_id integer NOT NULL REFERENCES customer_deals(id),
        amount numeric(14,2) NOT NULL CHECK (amount > 0),
        reference varchar(255) NOT NULL,
        narration varchar(255) NOT NULL DEFAULT '',
        type varchar(20) NOT NULL CHECK (type IN ('DEPOSIT', 'MANUAL', 'MOBILE_MONEY')),
        created_by integer REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX payments_reference_key ON payments (reference)`);
    await q.query(`CREATE INDEX payments_customer_idx ON payments (customer_id, id DESC)`);
    await q.query(`CREATE INDEX payments_deal_idx ON payments (customer_deal_id)`);
    await q.query(`
      CREATE FUNCTION payments_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'payments are an immutable ledger: % is not allowed', TG_OP USING ERRCODE = 'restrict_violation';
      END $$`);
    await q.query(`CREATE TRIGGER payments_immutable BEFORE UPDATE OR DELETE ON payments FOR EACH ROW EXECUTE FUNCTION payments_are_immutable()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE payments`);
    await q.query(`DROP FUNCTION payments_are_immutable()`);
    await q.query(`DROP TABLE customer_deals`);
    await q.query(`DROP TABLE customers`);
    await q.query(`DROP TABLE accounts`);
    await q.query(`DROP TABLE deals`);
  }
}
