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
const VARIANT = '89ab';
/** The character code of each hex digit. */
const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const DASH = 45;
const FOUR = 52;
/** Decimal digits exact in a double: a run of them is gathered into one number, then written once. */
const EXACT_DIGITS = 15;

/** The character code of the hex digit of `value` `shift` bits up. */
const hexCode = (value: number, shift: number) => HEX_CODES[(value >>> shift) & 15] ?? 0;

/** `value` (32 bits) as 8 lowercase hex digits, zeros in front: one string, nothing made on the way. */
function hex8(value: number): string {
  return String.fromCharCode(
    hexCode(value, 28),
    hexCode(value, 24),
    hexCode(value, 20),
    hexCode(value, 16),
    hexCode(value, 12),
    hexCode(value, 8),
    hexCode(value, 4),
    hexCode(value, 0),
  );
}

/**
 * A UUID's characters before they become its string, filled in place: overwritten whole by each `uuid()`, which
 * runs to its end before anything else, so one array serves every generator.
 */
const uuidCodes: number[] = new Array(36).fill(0);

/** Writes the `digits` lowest hex digits of `value` into `uuidCodes` from `at`. */
function putHex(at: number, value: number, digits: number): void {
  for (let i = 0; i < digits; i++) uuidCodes[at + i] = hexCode(value, (digits - 1 - i) * 4);
}

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
    // Each draw gives the next digit, as one string a draw did; up to 15 are gathered into a number and written
    // once, which makes one string where a draw made one.
    let out = '';
    for (let left = n; left > 0; left -= EXACT_DIGITS) {
      const run = Math.min(left, EXACT_DIGITS);
      let value = 0;
      for (let i = 0; i < run; i++) value = value * 10 + (this.uint32() % 10);
      out += String(value).padStart(run, '0');
    }
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
    while (out.length < n) out += hex8(this.uint32());
    return out.length === n ? out : out.slice(0, n);
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
    putHex(0, w0, 8);
    uuidCodes[8] = DASH;
    putHex(9, w1 >>> 16, 4);
    uuidCodes[13] = DASH;
    uuidCodes[14] = FOUR;
    putHex(15, w1 & 0xfff, 3);
    uuidCodes[18] = DASH;
    uuidCodes[19] = VARIANT.charCodeAt((w2 >>> 28) & 3);
    putHex(20, (w2 >>> 16) & 0xfff, 3);
    uuidCodes[23] = DASH;
    putHex(24, w2 & 0xffff, 4);
    putHex(28, w3, 8);
    return String.fromCharCode.apply(null, uuidCodes);
  }
}
