import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The module boundaries of .dependency-cruiser.cjs (docs/architecture.md), checked on every `npm test`. */
const ROOT = resolve('.');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const CLI = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Runs dependency-cruiser on `src` of `cwd` and answers its violations (it exits non-zero when there are any). */
function cruise(cwd: string): Violation[] {
  let out: string;
  try {
    out = execFileSync(process.execPath, [CLI, 'src', '--config', CONFIG, '--output-type', 'json'], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    out = (error as { stdout?: string }).stdout ?? '';
    if (!out) throw error;
  }
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

/** The modules and the imports between them, each import as `from -> to`, as `npm run graph:modules` draws them. */
function moduleGraph(): { modules: string[]; imports: string[] } {
  const args = [CLI, 'src', '--config', CONFIG, '--include-only', '^src/modules', '--exclude', '\\.spec\\.ts$', '--collapse', '^src/modules/[^/]+', '--output-type', 'dot'];
  const dot = execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const imports = [...dot.matchAll(/"(src\/modules\/[^"]+)" -> "(src\/modules\/[^"]+)"/g)].map((m) => `${m[1]} -> ${m[2]}`);
  const modules = [...dot.matchAll(/"(src\/modules\/[^"]+)" \[label=/g)].map((m) => m[1]);
  return { modules: [...new Set(modules)].sort(), imports: [...new Set(imports)].sort() };
}

/** The same, as the committed picture (docs/modules.svg: Graphviz names each node and edge in a <title>). */
function drawnGraph(): { modules: string[]; imports: string[] } {
  const titles = [...readFileSync(join(ROOT, 'docs/modules.svg'), 'utf8').matchAll(/<title>(src\/modules\/[^<]+)<\/title>/g)].map((m) =>
    m[1].replace(/&#45;/g, '-').replace(/&gt;/g, '>'),
  );
  return {
    modules: [...new Set(titles.filter((t) => !t.includes('->')))].sort(),
    imports: [...new Set(titles.filter((t) => t.includes('->')).map((t) => t.replace('->', ' -> ')))].sort(),
  };
}

describe('module boundaries', () => {
  it('are drawn as they are in docs/modules.svg: every module and every import between two (npm run graph:modules redraws it)', () => {
    expect(drawnGraph()).toEqual(moduleGraph());
  });

  it('holds in src: no module reaches into another’s infrastructure/ or http/, domain/ imports no framework, no cycles', () => {
    expect(cruise(ROOT).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('fails on each kind of forbidden import', () => {
    const dir = mkdtempSync(join(tmpdir(), 'payg-boundaries-'));
    try {
      const file = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
      file('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022' } }));
      file('package.json', JSON.stringify({ type: 'module' }));
      file('src/modules/ledger/infrastructure/ledger.repository.ts', 'export class LedgerRepository {}\n');
      file('src/modules/ledger/http/ledger.dto.ts', 'export class LedgerResponse {}\n');
      file('src/modules/ledger/application/ledger.service.ts', "import { LedgerRepository } from '../infrastructure/ledger.repository.js';\nexport class LedgerService { constructor(readonly r: LedgerRepository) {} }\n");
      file(
        'src/modules/sales/application/sales.service.ts',
        "import { LedgerService } from '../../ledger/application/ledger.service.js';\nimport { LedgerRepository } from '../../ledger/infrastructure/ledger.repository.js';\nimport { LedgerResponse } from '../../ledger/http/ledger.dto.js';\nexport const uses = [LedgerService, LedgerRepository, LedgerResponse];\n",
      );
      file('src/modules/sales/domain/price.ts', "import { Injectable } from '@nestjs/common';\nimport { Entity } from 'typeorm';\nexport const price = [Injectable, Entity];\n");
      file('src/modules/sales/domain/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
      file('src/modules/sales/domain/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");

      const found = cruise(dir).map((v) => `${v.rule.name}: ${v.from} → ${v.to.replace(/^.*node_modules\//, 'node_modules/')}`);
      expect(found).toEqual(
        expect.arrayContaining([
          'no-other-module-internals: src/modules/sales/application/sales.service.ts → src/modules/ledger/infrastructure/ledger.repository.ts',
          'no-other-module-internals: src/modules/sales/application/sales.service.ts → src/modules/ledger/http/ledger.dto.ts',
          expect.stringMatching(/^domain-without-frameworks: src\/modules\/sales\/domain\/price\.ts → node_modules\/@nestjs\/common\//),
          expect.stringMatching(/^domain-without-frameworks: src\/modules\/sales\/domain\/price\.ts → node_modules\/typeorm\//),
          'no-circular: src/modules/sales/domain/a.ts → src/modules/sales/domain/b.ts',
        ]),
      );
      // a module's own infrastructure and another module's application/ stay allowed
      expect(found.filter((v) => v.includes('ledger/application/ledger.service.ts →') || v.endsWith('→ src/modules/ledger/application/ledger.service.ts'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
