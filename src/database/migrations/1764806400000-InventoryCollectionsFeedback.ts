import { MigrationInterface, QueryRunner } from 'typeorm';

export class InventoryCollectionsFeedback1764806400000 implements MigrationInterface {
  name = 'InventoryCollectionsFeedback1764806400000';

  async up(q: QueryRunner): Promise<void> {
    // Stock on hand; never below zero. Every change is a row of inventory_movements.
    await q.query(`
      CREATE TABLE inventory_items (
        id serial PRIMARY KEY,
        itemname varchar(255) NOT NULL,
        quantity integer NOT NULL CHECK (quantity >= 0),
        unitcost numeric(14,2) NOT NULL CHECK (unitcost >= 0),
        supplier varchar(255) NOT NULL,
        created_by integer REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX inventory_items_itemname_idx ON inventory_items (lower(itemname) varchar_pattern_ops)`,
    );
    await q.query(
      `CREATE INDEX inventory_items_supplier_idx ON inventory_items (lower(supplier) varchar_pattern_ops)`,
    );
    await q.query(`
      CREATE TABLE inventory_movements (
        id bigserial PRIMARY KEY,
        item_id integer NOT NULL REFERENCES inventory_items(id),
        kind varchar(10) NOT NULL CHECK (kind IN ('ADD', 'ADJUST')),
        delta integer NOT NULL,
        quantity_after integer NOT NULL CHECK (quantity_after >= 0),
        reason varchar(255) NOT NULL,
        created_by integer REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX inventory_movements_item_idx ON inventory_movements (item_id, id DESC)`);

    // Collection calls: at most one open (not RESOLVED) call per deal, enforced by the unique index.
    await q.query(`
      CREATE TABLE collection_calls (
        id serial PRIMARY KEY,
        customer_id integer NOT NULL REFERENCES customers(id),
        customer_deal_id integer NOT NULL REFERENCES customer_deals(id),
        status varchar(10) NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'CALLED', 'RESOLVED')),
        amountinarrears numeric(14,2) NOT NULL CHECK (amountinarrears >= 0),
        daysoverdue integer NOT NULL CHECK (daysoverdue >= 0),
        nextpaymentdate date NOT NULL,
        assigned_to integer REFERENCES users(id),
        notes varchar(255),
        promisedate date,
        resolution varchar(20) CHECK (resolution IN ('COLLECTOR', 'PAYMENT', 'BONUS_DAYS')),
        updated_by integer REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        called_at timestamptz,
        resolved_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((status = 'RESOLVED') = (resolution IS NOT NULL))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX collection_calls_open_key ON collection_calls (customer_deal_id) WHERE status <> 'RESOLVED'`,
    );
    await q.query(`CREATE INDEX collection_calls_status_idx ON collection_calls (status, id)`);
    await q.query(`CREATE INDEX collection_calls_assigned_idx ON collection_calls (assigned_to, id)`);

    await q.query(`
      CREATE TABLE feedback (
        id serial PRIMARY KEY,
        customer_id integer NOT NULL REFERENCES customers(id),
        category varchar(20) NOT NULL CHECK (category IN ('PAYMENT', 'DEVICE', 'SERVICE', 'COMPLAINT', 'OTHER')),
        message varchar(255) NOT NULL,
        created_by integer REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX feedback_customer_idx ON feedback (customer_id, id DESC)`);

    // The portfolio report's collection rate reads payments by the day they arrived.
    await q.query(`CREATE INDEX payments_created_at_idx ON payments (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX payments_created_at_idx');
    await q.query('DROP TABLE feedback');
    await q.query('DROP TABLE collection_calls');
    await q.query('DROP TABLE inventory_movements');
    await q.query('DROP TABLE inventory_items');
  }
}
