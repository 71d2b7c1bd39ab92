// Which known name a misspelt one was meant to be: an option of the code (`bulkItemDelayMs`), a ready scenario
// (`flakey-bank`). One rule for every "did you mean", so they suggest alike.

/** The number of single-character insertions, deletions and substitutions that turn `a` into `b` (Levenshtein). */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

/**
 * The name of `known` nearest to `given`, when one is near enough to have been meant; undefined otherwise. Both are
 * compared as `fold` gives them (lower case unless told). A known name with something added to its end
 * (`importLimitBytes` for `importLimit`) counts as one edit away: a unit is the commonest slip. Short names are all
 * near each other (`log` is three edits from `host`), so a name of up to 6 characters must be within 2 edits, a
 * longer one within 3. Among names as near, the first of `known` wins.
 */
export function nearestName(
  given: string,
  known: Iterable<string>,
  fold: (name: string) => string = (name) => name.toLowerCase(),
): string | undefined {
  const wanted = fold(given);
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const folded = fold(name);
    const distance = wanted.startsWith(folded) && wanted !== folded ? 1 : editDistance(wanted, folded);
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best && best.distance <= (wanted.length <= 6 ? 2 : 3) ? best.name : undefined;
}
