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

export class Random {
  private s: RandomState;

  constructor(state: RandomState) {
    this.s = [...state];
  }

  /** The current state, to persist. */
  get state(): RandomState {
    return [...this.s];
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  uint32(): number {
    let [a, b, c, d] = this.s;
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    this.s = [a >>> 0, b, c, d];
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
    for (let i = 0; i < n; i++) out += String(this.uint32() % 10);
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
    while (out.length < n) out += this.uint32().toString(16).padStart(8, '0');
    return out.slice(0, n);
  }

  /** A version-4 UUID drawn from this generator. */
  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = '89ab'[Number.parseInt(h[16] ?? '0', 16) & 3] ?? '8';
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}
