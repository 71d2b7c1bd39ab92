import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layers, withLayoutTable } from '../../scripts/layout-table.js';

const root = join(import.meta.dirname, '..', '..');
const parts = layers.flatMap((layer) => layer.parts);

describe("the house's layers (tools/layers.cjs)", () => {
  it('give every folder and top-level file of src/ a layer, and name nothing that is not there', async () => {
    const entries = await readdir(join(root, 'src'), { withFileTypes: true });
    const present = entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort();
    expect([...parts].sort()).toEqual(present);
  });

  it('give each part one layer only', () => {
    expect(new Set(parts).size).toBe(parts.length);
  });

  it('hold no source file of over 500 lines: a longer one is split by what it does', async () => {
    const files = (await readdir(join(root, 'src'), { recursive: true })).filter((f) => /\.tsx?$/.test(f));
    const long: string[] = [];
    for (const file of files) {
      const lines = (await readFile(join(root, 'src', file), 'utf8')).split('\n').length - 1;
      if (lines > 500) long.push(`${file}: ${lines}`);
    }
    expect(files.length).toBeGreaterThan(100);
    expect(long).toEqual([]);
  });

  it("are CONTRIBUTING.md's layout table as committed (npm run docs writes it)", async () => {
    const committed = await readFile(join(root, 'CONTRIBUTING.md'), 'utf8');
    if (withLayoutTable(committed) !== committed)
      expect.fail("CONTRIBUTING.md's layout table differs from tools/layers.cjs: run npm run docs");
  });
});
