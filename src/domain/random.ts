/**
 * The one seeded random generator (sfc32): four 32-bit integers of state. The store gives each mutation its own
 * generator, seeded from the sandbox's seed and the mutation's sequence number, so a run is reproducible from
 * its seed and a restart never repeats identifiers (sequence numbers only grow).
 */
export type RandomState = [number, number, number, number];

/**
 * Expands a numeric seed, and optionally a stream number, into a generator state (splitmix32), so nearby seeds
 * and streams give unrelated sequences.
 */
/**
 * A salt of `text` (32-bit FNV-1a): what an isolated sandbox mixes into its seed (its id), so that two sandboxes of
 * one seed draw their own keys and ids, and one of a given seed and id always the same.
 */
export function saltOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function seedState(seed: number, stream = 0): RandomState {
  let x = (seed ^ Math.imul(stream >>> 0, 0x85ebca6b) ^ Math.floor(stream / 4294967296)) >>> 0;
  const next = (): number => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    return (z ^ (z >>> 15)) >>> 0;
  };
  return [next(), next(), next(), next()];
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const DIGITS = '0123456789';
const VARIANT = '89ab';

/** `value`'s lowest `width` hex digits, zeros in front. */
const hexOf = (value: number, width: number) => value.toString(16).padStart(width, '0');

// The state is four numbers of the object rather than an array: a draw replaced the array on every call, and a
// typical test draws a few hundred times (references, account numbers, ids).
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(state: RandomState) {
    [this.a, this.b, this.c, this.d] = state;
  }

  /** The current state, to persist. */
  get state(): RandomState {
    return [this.a, this.b, this.c, this.d];
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  uint32(): number {
    const { a, b, c, d } = this;
    const t = (((a + b) >>> 0) + d) >>> 0;
    this.d = (d + 1) >>> 0;
    this.a = (b ^ (b >>> 9)) >>> 0;
    this.b = (c + (c << 3)) >>> 0;
    this.c = ((((c << 21) | (c >>> 11)) >>> 0) + t) >>> 0;
    return t;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** `n` decimal digits. */
  digits(n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += DIGITS[this.uint32() % 10];
    return out;
  }

  /** `n` letters (either case) and digits. */
  alphanumeric(n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += ALPHANUMERIC[this.uint32() % ALPHANUMERIC.length];
    return out;
  }

  /** `n` lowercase hex characters. */
  hex(n: number): string {
    let out = '';
    while (out.length < n) out += hexOf(this.uint32(), 8);
    return out.slice(0, n);
  }

  /**
   * A version-4 UUID drawn from this generator: 32 hex digits of four draws, the 13th made `4` and the 17th one of
   * `89ab` by its own two lowest bits, as RFC 9562 says.
   */
  uuid(): string {
    const w0 = this.uint32();
    const w1 = this.uint32();
    const w2 = this.uint32();
    const w3 = this.uint32();
    return (
      `${hexOf(w0, 8)}-${hexOf(w1 >>> 16, 4)}-4${hexOf(w1 & 0xfff, 3)}-` +
      `${VARIANT[(w2 >>> 28) & 3]}${hexOf((w2 >>> 16) & 0xfff, 3)}-${hexOf(w2 & 0xffff, 4)}${hexOf(w3, 8)}`
    );
  }
}
