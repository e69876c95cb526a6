import fc from 'fast-check';
import { unescapeCell } from '../../imports/domain/import-file.js';
import { safeCell } from './csv-cell.js';

describe('safeCell', () => {
  it('neutralises what a spreadsheet would run, and a leading quote', () => {
    expect(['=SUM(A1)', '+256772', '-5', '@cmd', '\tx', '\rx', "'-Jane", "'x", 'Amina'].map(safeCell)).toEqual([
      "'=SUM(A1)", "'+256772", "'-5", "'@cmd", "'\tx", "'\rx", "''-Jane", "''x", 'Amina',
    ]);
  });

  it('is undone by the import: any text exported re-imports as itself', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', 'a', ' ') }), (text) => unescapeCell(safeCell(text)) === text));
  });
});
