import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The nearest folder named `folder` holding `probe`, from the directory of `moduleUrl` up `levels` levels: what the
 * package ships beside its modules (fixtures, browser files) is found the same way from `src/<folder>/` when run
 * from source and from `dist/` or `dist/chunks/` when bundled.
 */
export function nearestFolder(
  moduleUrl: string,
  folder: string,
  probe: string,
  levels = 3,
): string | undefined {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (let i = 0; i < levels; i++) {
    if (existsSync(join(dir, folder, probe))) return join(dir, folder);
    dir = dirname(dir);
  }
  return undefined;
}
