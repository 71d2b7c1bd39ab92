/**
 * Which reset of its sandbox an access token was issued after. A reset brings the fixtures back with the same token
 * key (the seed decides it, and a reset must give the state a fresh start gives), so a token from before it would
 * verify again, and a test that lost a race with another's reset would go on against a state it never made. Tokens
 * therefore carry the epoch they were issued in (claim `rst`), and one from an earlier epoch is refused, with the
 * reset's time to say why. Kept in memory: a restart forgets the resets before it, and takes every token that
 * verifies, as it did before any reset.
 */
/** Where the epochs stand: the last reset's nonce and time, or null before any. */
export type EpochMark = { readonly nonce: string; readonly at: number } | null;

export class TokenEpoch {
  private mark: EpochMark = null;

  /** The claim a token issued now carries; undefined before the first reset. */
  get claim(): string | undefined {
    return this.mark?.nonce;
  }

  /** A reset at `atMs` (real time) begins epoch `nonce`: every token issued before it is refused. */
  begin(nonce: string, atMs: number): void {
    this.mark = { nonce, at: atMs };
  }

  /** When the sandbox was reset after a token of epoch `claim` was issued (ms); null when it is of this epoch. */
  resetAfter(claim: string | undefined): number | null {
    if (this.mark === null || claim === this.mark.nonce) return null;
    return this.mark.at;
  }

  /** What `restore()` puts back: a reset the disk refused leaves the tokens as they were. */
  save(): EpochMark {
    return this.mark;
  }

  restore(saved: EpochMark): void {
    this.mark = saved;
  }
}
