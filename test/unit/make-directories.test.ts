import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeDirectories } from '../../src/store/file-system.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'make-directories-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('makes every missing folder of the path, and takes one that is there', async () => {
  const path = join(dir, 'a', 'b', 'c');
  await makeDirectories(path);
  expect((await stat(path)).isDirectory()).toBe(true);
  await expect(makeDirectories(path)).resolves.toBeUndefined();
  await expect(makeDirectories(dir)).resolves.toBeUndefined();
});

it('refuses a file in the way', async () => {
  await writeFile(join(dir, 'file'), 'x');
  await expect(makeDirectories(join(dir, 'file'))).rejects.toMatchObject({ code: 'EEXIST' });
  await expect(makeDirectories(join(dir, 'file', 'sub', 'deeper'))).rejects.toMatchObject({
    code: 'ENOTDIR',
  });
});

// Node's `mkdir(path, {recursive: true})` never settles there: /proc exists and answers ENOENT for a new folder.
it.skipIf(!existsSync('/proc/self'))(
  'gives up with ENOENT where a folder that exists refuses a child',
  async () => {
    await expect(makeDirectories('/proc/no-such-folder/deeper')).rejects.toMatchObject({
      code: 'ENOENT',
      path: '/proc/no-such-folder',
    });
  },
);
