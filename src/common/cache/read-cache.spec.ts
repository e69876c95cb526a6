import { ReadCache } from './read-cache.js';

describe('ReadCache', () => {
  it('reuses an answer within its time and reads again after it', async () => {
    const cache = new ReadCache<number, string>(50);
    let reads = 0;
    const read = async () => `answer ${++reads}`;
    expect(await cache.get(1, read)).toBe('answer 1');
    expect(await cache.get(1, read)).toBe('answer 1');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await cache.get(1, read)).toBe('answer 2');
  });

  it('reads again at once after forget', async () => {
    const cache = new ReadCache<number, string>(60_000);
    let reads = 0;
    const read = async () => `answer ${++reads}`;
    await cache.get(1, read);
    cache.forget(1);
    expect(await cache.get(1, read)).toBe('answer 2');
  });

  it('answers, but does not keep, a read that a forget overtook', async () => {
    const cache = new ReadCache<number, string>(60_000);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const racing = cache.get(1, async () => {
      await held;
      return 'before the change';
    });
    cache.forget(1);
    release();
    expect(await racing).toBe('before the change');
    expect(await cache.get(1, async () => 'after the change')).toBe('after the change');
  });
});
