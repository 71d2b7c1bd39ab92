import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Browser files a page serves: name → content type. */
export type AssetTypes = Readonly<Record<string, string>>;

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
