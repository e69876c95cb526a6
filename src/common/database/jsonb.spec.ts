import { storableJson } from './jsonb.js';

describe('storableJson', () => {
  it('replaces the NUL character and lone surrogates, in values and keys, and keeps everything else', () => {
    expect(storableJson({ a: 'x\u0000y', ['k\ud800']: ['\udfff', 1, null, true, { b: 'Amina 😀' }] })).toEqual({ a: 'x\ufffdy', ['k\ufffd']: ['\ufffd', 1, null, true, { b: 'Amina 😀' }] });
    expect(storableJson('plain')).toBe('plain');
    expect(storableJson(null)).toBeNull();
  });
});
