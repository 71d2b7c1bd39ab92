import { describe, expect, it } from 'vitest';
import { IdLine } from '../../src/engine/id-line.js';

describe('IdLine: the ids of a client waiting for a delivery slot', () => {
  it('gives the ids back in the order they came, across the drops of its front, with ids pushed in between', () => {
    const line = new IdLine();
    const taken: string[] = [];
    let pushed = 0;
    // 5 000 ids, taken one for every two pushed, then the rest: the front is dropped several times on the way.
    for (let round = 0; round < 2500; round++) {
      line.push(`d${pushed++}`);
      line.push(`d${pushed++}`);
      taken.push(line.take() as string);
    }
    expect(line.size).toBe(2500);
    for (let id = line.take(); id !== undefined; id = line.take()) taken.push(id);
    expect(taken).toEqual(Array.from({ length: 5000 }, (_, i) => `d${i}`));
    expect(line.size).toBe(0);
  });

  it('is empty after clear(), and takes nothing when empty', () => {
    const line = new IdLine();
    line.push('a');
    line.push('b');
    line.clear();
    expect(line.size).toBe(0);
    expect(line.take()).toBeUndefined();
    line.push('c');
    expect(line.take()).toBe('c');
  });
});
