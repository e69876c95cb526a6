import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Jest compiles without type checks, so the compiler is asked directly: a route whose handler returns
 * less than the response it documents must not compile.
 */
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const probe = join(here, 'endpoint-probe.ts');

function typeErrors(handlers: string): string[] {
  const source = `
import { Role } from '../auth/role.js';
import { Endpoint } from './endpoint.decorator.js';
import { PageOf, type Page } from './pagination.js';

class ItemResponse { name: string; }
class ItemWithPriceResponse { name: string; price: number; }

export class ProbeController {
${handlers}
}
`;
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const options = { ...parsed!.options, noEmit: true, incremental: false, types: ['node'] };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => (file === probe ? source : readFile(file));
  host.fileExists = (file) => file === probe || ts.sys.fileExists(file);
  host.getSourceFile = (file, language) => (file === probe ? ts.createSourceFile(file, source, language) : getSourceFile(file, language));
  const program = ts.createProgram([probe], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === probe)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}

describe('Endpoint holds the handler to the response it documents', () => {
  it('accepts handlers that answer the documented response, a list of it or a page of it', () => {
    const errors = typeErrors(`
  @Endpoint({ summary: 'one', roles: [Role.OPERATOR], response: ItemResponse })
  one(): Promise<ItemWithPriceResponse> { return Promise.resolve({ name: 'a', price: 1 }); }

  @Endpoint({ summary: 'list', roles: [Role.OPERATOR], response: [ItemResponse] })
  list(): Promise<ItemResponse[]> { return Promise.resolve([]); }

  @Endpoint({ summary: 'page', roles: [Role.OPERATOR], response: PageOf(ItemResponse) })
  page(): Promise<Page<ItemResponse>> { return Promise.resolve({ items: [], total: 0, page: 1, limit: 20 }); }

  @Endpoint({ summary: 'a file', roles: [] })
  file(): string { return 'a,b'; }
`);
    expect(errors).toEqual([]);
  });

  it('refuses a handler that lacks a field of the documented response', () => {
    const errors = typeErrors(`
  @Endpoint({ summary: 'one', roles: [Role.OPERATOR], response: ItemWithPriceResponse })
  one(): Promise<ItemResponse> { return Promise.resolve({ name: 'a' }); }
`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("Property 'price' is missing");
  });

  it('refuses a single item where a list is documented, and a list where a page is', () => {
    const errors = typeErrors(`
  @Endpoint({ summary: 'list', roles: [Role.OPERATOR], response: [ItemResponse] })
  list(): Promise<ItemResponse> { return Promise.resolve({ name: 'a' }); }

  @Endpoint({ summary: 'page', roles: [Role.OPERATOR], response: PageOf(ItemResponse) })
  page(): Promise<ItemResponse[]> { return Promise.resolve([]); }
`);
    expect(errors).toHaveLength(2);
  });
});
