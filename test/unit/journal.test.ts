import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeFileSystem } from '../../src/store/file-system.js';
import { Journal, lineSeq } from '../../src/store/journal.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'journal-'));
  path = join(dir, 'db.json.wal');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An entry of about `bytes` bytes, non-ASCII text included. */
const entry = (q: number, bytes: number) =>
  `{"q":${q},"o":[["customers","c${q}",{"name":"${'ọ'.repeat(Math.max(0, Math.floor((bytes - 40) / 3)))}"}]]}\n`;

/** What dropThrough keeps: the lines after `covered` bytes whose sequence number is above `seq`. */
function expected(text: string, seq: number, covered: number): string {
  return Buffer.from(text)
    .subarray(covered)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '' && lineSeq(line) > seq)
    .map((line) => `${line}\n`)
    .join('');
}

describe('Journal.dropThrough', () => {
  // Lines shorter than the few bytes that hold a sequence number, lines across the quarter-MB reads, lines
  // longer than a read, and blank lines (a probe's, an empty one).
  const lines = [
    entry(1, 30),
    entry(2, 100),
    `${' '.repeat(50)}\n`,
    '\n',
    ...Array.from({ length: 40 }, (_, i) => entry(3 + i, 20_000 + i * 997)),
    entry(43, 700_000),
    entry(44, 10),
    entry(45, 300_000),
    ...Array.from({ length: 300 }, (_, i) => entry(46 + i, 1500)),
  ];
  const text = lines.join('');
  const bytes = Buffer.byteLength(text);

  it.each([
    ['keeps everything above 0', 0, 0],
    ['drops through a short line', 1, 0],
    ['drops through a line in the middle of a read', 20, 0],
    ['drops through the line longer than a read', 43, 0],
    ['drops everything', 1000, 0],
    ['reads only past the covered bytes', 0, Buffer.byteLength(lines.slice(0, 10).join(''))],
  ])('%s', async (_name, seq, covered) => {
    const journal = await Journal.open(nodeFileSystem, path);
    await journal.write(lines);
    expect(journal.size).toBe(bytes);
    await journal.dropThrough(seq, covered);
    const kept = expected(text, seq, covered);
    expect(await readFile(path, 'utf8')).toBe(kept);
    expect(journal.size).toBe(Buffer.byteLength(kept));
    // Appends go on after what was kept.
    await journal.write([entry(9999, 50)]);
    expect(await readFile(path, 'utf8')).toBe(kept + entry(9999, 50));
    await journal.close();
  });
});
