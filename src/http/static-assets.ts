import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Browser files a page serves: name → content type. */
export type AssetTypes = Readonly<Record<string, string>>;

/**
 * The nearest folder named `folder` holding `probe`, from the directory of `moduleUrl` up three levels: the
 * folder `scripts/build.mjs` copies beside the bundle (`dist/`, also found from `dist/chunks/`), or one beside the
 * source module when running from source.
 */
export function nearestFolder(moduleUrl: string, folder: string, probe: string): string | undefined {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (let i = 0; i < 3; i++) {
    if (existsSync(join(dir, folder, probe))) return join(dir, folder);
    dir = dirname(dir);
  }
  return undefined;
}

/**
 * Reads each asset once, on its first request, from the folder `locate` finds (asked once); undefined for a
 * name that is not an asset, or a missing file.
 */
export function assetReader(types: AssetTypes, locate: () => string | undefined) {
  let dir: string | undefined | null = null;
  const cache = new Map<string, Promise<string | undefined>>();
  return (name: string): Promise<string | undefined> => {
    if (!Object.hasOwn(types, name)) return Promise.resolve(undefined);
    let text = cache.get(name);
    if (!text) {
      if (dir === null) dir = locate();
      const from = dir;
      text =
        from === undefined
          ? Promise.resolve(undefined)
          : readFile(join(from, name), 'utf8').catch(() => undefined);
      cache.set(name, text);
    }
    return text;
  };
}
