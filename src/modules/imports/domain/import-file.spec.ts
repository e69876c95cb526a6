import { RowError, RowErrors } from './import-file.js';

const errorsOf = (row: number, ...fields: string[]): RowError[] => fields.map((field) => ({ row, field, message: `${field} is wrong` }));

describe('RowErrors', () => {
  it('counts every error and every bad row but keeps only the first ones by row, whatever order they come in', () => {
    const errors = new RowErrors(5);
    // rows 5–9 bad in their cells first, then earlier rows found bad against the book when their chunk is checked
    for (let row = 5; row <= 9; row++) errors.addRow(errorsOf(row, 'amount', 'date'));
    errors.addRow(errorsOf(2, 'payg'));
    errors.addRow([]);
    errors.addRow(errorsOf(4, 'reference'));
    errors.addRow(errorsOf(3, 'payg', 'reference'));
    expect({ count: errors.count, rows: errors.rows }).toEqual({ count: 14, rows: 8 });
    expect(errors.list().map((e) => [e.row, e.field])).toEqual([[2, 'payg'], [3, 'payg'], [3, 'reference'], [4, 'reference'], [5, 'amount']]);
  });

  it('holds at most twice its limit however many errors it is given', () => {
    const errors = new RowErrors(10);
    for (let row = 200_000; row > 1; row--) {
      errors.addRow(errorsOf(row, 'payg', 'amount', 'reference', 'date'));
      expect((errors as unknown as { kept: RowError[] }).kept.length).toBeLessThan(20);
    }
    expect(errors.count).toBe(4 * 199_999);
    expect(errors.list().map((e) => e.row)).toEqual([2, 2, 2, 2, 3, 3, 3, 3, 4, 4]);
  });
});
