import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * One writer per table (docs/architecture.md): every statement that writes a table, and every TypeORM
 * entity (the other persistence style, whose writes dependency-cruiser already keeps inside the
 * entity's module), is in the table's owner. Checked on the source, on every `npm test`.
 */
const SRC = resolve('src');

/** Table → the one part of src that writes it: a module, or a folder of common/. */
const OWNERS: Record<string, string> = {
  users: 'modules/users',
  signin_attempts: 'modules/auth',
  signed_out_tokens: 'modules/auth',
  deals: 'modules/deals',
  accounts: 'modules/accounts',
  payments: 'modules/accounts',
  device_commands: 'modules/device-commands',
  customer_deals: 'modules/contracts',
  bonus_grants: 'modules/contracts',
  customers: 'modules/customers',
  mobile_money_transactions: 'modules/payments',
  collection_calls: 'modules/collections',
  sms_messages: 'modules/messages',
  customer_preferences: 'modules/messages',
  imports: 'modules/imports',
  import_jobs: 'modules/imports',
  import_rows: 'modules/imports',
  inventory_items: 'modules/inventory',
  inventory_movements: 'modules/inventory',
  feedback: 'modules/feedback',
  audit_log: 'common/audit',
};
/** Written by migrations alone. */
const MIGRATIONS_ONLY = ['identifier_conflicts'];

const WRITES = [
  /\bINSERT\s+INTO\s+([a-z_]+)/g,
  /(?<!\bFOR\s)(?<!\bFOR NO KEY\s)\bUPDATE\s+([a-z_]+)/g,
  /\bDELETE\s+FROM\s+([a-z_]+)/g,
  /@Entity\('([a-z_]+)'\)/g,
  // a library that keeps its own rows (the sign-in rate limiter) is told its table by name
  /\btableName:\s*'([a-z_]+)'/g,
];

/** The part of src a file belongs to: `modules/<name>`, `common/<name>`, or its top folder. */
const partOf = (file: string) => {
  const [top, name] = file.split('/');
  return top === 'modules' || top === 'common' ? `${top}/${name}` : top;
};

/** The tables each part of the code writes, read from source text without its comments. */
function writers(files: Record<string, string>): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const [file, text] of Object.entries(files)) {
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const pattern of WRITES) {
      for (const [, table] of code.matchAll(pattern)) found.set(table, new Set([...(found.get(table) ?? []), partOf(file)]));
    }
  }
  return found;
}

/** Every table with a writer that is not its owner, as `table: writer`. */
function trespasses(found: Map<string, Set<string>>): string[] {
  return [...found].flatMap(([table, parts]) => [...parts].filter((part) => part !== OWNERS[table]).map((part) => `${table}: ${part}`));
}

/** Every .ts file of src but the tests, by its path in src. */
function sourceFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(SRC, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && path.endsWith('.ts') && !path.endsWith('.spec.ts')) files[relative(SRC, path)] = readFileSync(path, 'utf8');
  }
  return files;
}

describe('one writer per table', () => {
  const files = Object.entries(sourceFiles());
  const isMigration = ([file]: [string, string]) => file.startsWith('database/migrations/');
  const found = writers(Object.fromEntries(files.filter((f) => !isMigration(f))));

  it('every table is written only by its owner', () => {
    expect(trespasses(found)).toEqual([]);
  });

  it('finds a writer for every owned table, and every table the migrations create has an owner', () => {
    expect([...found.keys()].sort()).toEqual(Object.keys(OWNERS).sort());
    const migrations = files.filter(isMigration).map(([, text]) => text).join('\n');
    const created = [...migrations.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_]+)/g)].map(([, table]) => table);
    expect([...new Set(created)].sort()).toEqual([...Object.keys(OWNERS), ...MIGRATIONS_ONLY].sort());
  });

  it('would catch another module writing a table, in SQL or through an entity, and not a comment or a row lock', () => {
    const reaching = writers({
      'modules/payments/infrastructure/x.repository.ts': "await em.query('UPDATE customers SET telephone = $1', [t]);\n// UPDATE customer_deals in a comment\nconst lock = 'SELECT 1 FROM deals FOR UPDATE SKIP LOCKED';",
      'modules/reports/infrastructure/y.entity.ts': "@Entity('payments')\nexport class Ledger {}",
      'common/database/z.ts': '/* DELETE FROM users */ INSERT INTO  audit_log (x) VALUES (1)',
    });
    expect(trespasses(reaching).sort()).toEqual(['audit_log: common/database', 'customers: modules/payments', 'payments: modules/reports']);
  });
});
