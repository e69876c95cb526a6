import { readFileSync } from 'node:fs';
import { openApiDocumentWithoutDatabase, schemaDeclarations, SCHEMA_FILE } from '../tools/web-api.js';

/** The web client's types come from the service's own document: a changed endpoint must regenerate them. */
describe('web client API types', () => {
  it('web/src/api/schema.d.ts is what `npm run web:api` makes of the current document', async () => {
    const expected = await schemaDeclarations(await openApiDocumentWithoutDatabase());
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    if (committed !== expected) throw new Error(`${SCHEMA_FILE} is stale: run \`npm run web:api\` and commit it`);
  });
});
