import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * A project of a user's, in a new temporary folder: 'banking-sandbox' resolves to this package by its name, through
 * its package.json (its "exports", so dist/), as once installed; `alsoInstalled` names more of our own dependencies
 * it finds the same way (vitest, testcontainers). An ES module project, as one with a vitest.config.ts is.
 */
export async function scratchProject(prefix: string, alsoInstalled: string[] = []): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
  await mkdir(join(dir, 'node_modules'));
  await symlink(ROOT, join(dir, 'node_modules', 'banking-sandbox'), 'dir');
  for (const name of alsoInstalled) {
    await symlink(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  return dir;
}
