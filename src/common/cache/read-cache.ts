/**
 * Answers read from the database, reused on this instance for `ttlMs` per key (other instances
 * follow a change within that time). `forget(key)` ends a key's answer at once, and an answer whose
 * read was under way while any key was forgotten serves its own caller but is not kept: its
 * snapshot may predate the change that forgot it.
 */
export class ReadCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();
  /** Counts the forgets: a read that one overtook is not kept. */
  private forgets = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: K, read: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.until > now) return cached.value;
    const forgets = this.forgets;
    const value = await read();
    if (forgets === this.forgets) {
      if (this.entries.size > this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, until: now + this.ttlMs });
    }
    return value;
  }

  forget(key: K): void {
    this.entries.delete(key);
    this.forgets++;
  }
}
