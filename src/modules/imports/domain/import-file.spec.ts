import { columnsOf, RowError, RowErrors } from './import-file.js';

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

describe('columnsOf', () => {
  const header = ['externalid', 'payg', 'amount', 'reference', 'date'];

  it('reads each field from its one column, mapped or named so in any letter case', () => {
    expect(columnsOf([' ExternalID', 'PAYG', 'Paid', 'Reference', 'date', 'region'], 'payments', { Paid: 'amount' })).toEqual(['externalid', 'payg', 'amount', 'reference', 'date', null]);
  });

  it('refuses every field two or more columns hold, naming the columns as written', () => {
    expect(() => columnsOf([...header, 'AMOUNT', ' Amount ', 'Date'], 'payments', null)).toThrow(
      'The file has more than one column for amount: "amount" (column 3), "AMOUNT" (column 6) and "Amount" (column 7); date: "date" (column 5) and "Date" (column 8). Keep one of them.',
    );
    expect(() => columnsOf([...header, 'Sent on'], 'payments', { 'Sent on': 'date' })).toThrow('The file has more than one column for date: "date" (column 5) and "Sent on" (column 6). Keep one of them.');
  });
});
