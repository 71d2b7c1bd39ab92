/**
 * One copy of each short string that records keep repeating. A record is stored as its journal text parsed back
 * (see `Store`), so every string in it is a copy of its own: a business id, a status, a bank's name, a webhook URL,
 * a payer's name, over and over. Those copies were about two thirds of a pending webhook delivery's 1.2 KB. Once
 * pooled, records share them.
 *
 * Bounded: it remembers the strings of its last `limit` misses (two generations of them; a string found in the
 * older one moves to the newer one). Strings seen once (ids, times, references) pass through and are forgotten;
 * the ones that keep coming back stay.
 */
export class StringPool {
  private current = new Map<string, string>();
  private previous = new Map<string, string>();

  constructor(
    private readonly limit = 4096,
    /** Longer strings are left alone: narrations and addresses are seldom repeated word for word. */
    private readonly maxLength = 96,
  ) {}

  /** The pooled copy of `value` (the first one seen), or `value` itself. */
  intern(value: string): string {
    if (value.length > this.maxLength) return value;
    const found = this.current.get(value);
    if (found !== undefined) return found;
    const older = this.previous.get(value);
    const kept = older ?? value;
    if (this.current.size >= this.limit) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(kept, kept);
    return kept;
  }

  /** Strings remembered now (at most twice `limit`). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  /** Whether `value` is remembered now. */
  has(value: string): boolean {
    return this.current.has(value) || this.previous.has(value);
  }
}

/**
 * Makes a record read-only, all the way down, and points its short strings at the pool's copies. A record already
 * frozen was settled before (a record put back by an undo) and is left as it is.
 *
 * `replaced` is the settled record this one replaces, if any: a string equal to the one it held in the same place
 * takes that one, settled already, without asking the pool. Most writes change a record in a field or two (a
 * status, a balance), and the lookups of the others were most of what settling cost.
 */
export function settleRecord<T>(value: T, pool: StringPool, replaced?: unknown): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    const fields = value as Record<string, unknown>;
    const before =
      replaced && typeof replaced === 'object' ? (replaced as Record<string, unknown>) : undefined;
    // `for…in` rather than `Object.keys`: no array of the keys for every record written. A record is plain data
    // (JSON parsed, or literals in code), with nothing enumerable on its prototype.
    for (const key in fields) {
      const field = fields[key];
      const was = before?.[key];
      // Always written back: `===` cannot tell the pool's copy from an equal one, so there is nothing to test first.
      if (typeof field === 'string') fields[key] = field === was ? was : pool.intern(field);
      else settleRecord(field, pool, was);
    }
    Object.freeze(value);
  }
  return value;
}
