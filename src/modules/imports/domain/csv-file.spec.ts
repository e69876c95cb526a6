import { FileBytes, readCsv } from './csv-file.js';

const bytes = (text: string) => new TextEncoder().encode(text);
/** The file cut into slices of `size` bytes, as the stored copy is read back. */
const sliced = (data: Uint8Array, size: number) =>
  Array.from({ length: Math.ceil(data.length / size) }, (_, i) => data.subarray(i * size, (i + 1) * size));

const recordsOf = async (slices: FileBytes) => {
  const records: Array<[number, string[]]> = [];
  const file = await readCsv(slices, () => (row, cells) => void records.push([row, cells]));
  return { header: file.header, count: file.records, records };
};

describe('readCsv over byte slices', () => {
  // a spreadsheet's export: BOM, CRLF line ends, a quoted comma, a blank line, characters of 2, 3 and 4 bytes
  const text =
    '\ufefffullname,telephone\r\n"Nakato, Aisha",+256700000001\r\n\r\nÖzil Müller 😀,+256700000002\r\nМария,+256700000003\r\n';
  const whole = {
    header: ['fullname', 'telephone'],
    count: 3,
    records: [
      [2, ['Nakato, Aisha', '+256700000001']],
      [4, ['Özil Müller 😀', '+256700000002']],
      [5, ['Мария', '+256700000003']],
    ],
  };

  it('reads the same records whatever the slice size, a character cut between two slices included', async () => {
    expect(await recordsOf([bytes(text)])).toEqual(whole);
    for (const size of [1, 2, 3, 5, 7, 16]) expect(await recordsOf(sliced(bytes(text), size))).toEqual(whole);
  });

  it('takes slices that arrive asynchronously', async () => {
    async function* slowly() {
      for (const slice of sliced(bytes(text), 4)) yield await Promise.resolve(slice);
    }
    expect(await recordsOf(slowly())).toEqual(whole);
  });

  it('refuses UTF-16, NUL bytes and broken quoting with the messages users see, wherever they are', async () => {
    await expect(recordsOf([new Uint8Array([0xff, 0xfe, 0x61, 0x00])])).rejects.toMatchObject({
      message: 'The file is UTF-16: save it as CSV UTF-8 and upload it again.',
    });
    await expect(recordsOf(sliced(bytes('a,b\n1,2\n3,\u00004\n'), 3))).rejects.toMatchObject({
      message: 'The file holds NUL bytes: it is not a UTF-8 CSV text file.',
    });
    await expect(recordsOf(sliced(bytes('a,b\n"1,2\n'), 2))).rejects.toMatchObject({
      message: expect.stringMatching(/^The file is not valid CSV: /),
    });
    await expect(recordsOf([bytes('\n\n')])).rejects.toMatchObject({
      message: 'The file is empty: it needs a header row naming its columns.',
    });
  });

  it('skips blank lines before the header, numbering rows as the lines of the file', async () => {
    expect(await recordsOf([bytes('\r\nname,phone\r\nA,1\r\n')])).toEqual({ header: ['name', 'phone'], count: 1, records: [[3, ['A', '1']]] });
    expect(await recordsOf(sliced(bytes(',,,,\r\n  , \r\n\r\nname\r\nA\r\n\r\nB\r\n'), 3))).toEqual({ header: ['name'], count: 2, records: [[5, ['A']], [7, ['B']]] });
    await expect(recordsOf([bytes(',,,,\r\n \r\n')])).rejects.toMatchObject({ message: 'The file is empty: it needs a header row naming its columns.' });
  });

  it('marks bytes that are not UTF-8 as U+FFFD in the cell that holds them', async () => {
    const latin1 = new Uint8Array([...bytes('name\nJos'), 0xe9, ...bytes('\n')]);
    expect((await recordsOf(sliced(latin1, 2))).records).toEqual([[2, ['Jos\ufffd']]]);
  });
});
