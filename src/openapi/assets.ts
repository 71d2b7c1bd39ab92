import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The files of `swagger-ui-dist` the reference page loads, with their content types. */
export const DOCS_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
};

/** The folder `scripts/build.mjs` copies them to, beside the bundle (the image has no node_modules). */
export const DOCS_ASSETS_FOLDER = 'docs-assets';

/**
 * Where the files are: the nearest `docs-assets/` above this module (`dist/` when bundled, also from
 * `dist/chunks/`), else the `swagger-ui-dist` package in node_modules (running from source).
 */
export function docsAssetsDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 3; i++) {
    if (existsSync(join(dir, DOCS_ASSETS_FOLDER, 'swagger-ui-bundle.js')))
      return join(dir, DOCS_ASSETS_FOLDER);
    dir = dirname(dir);
  }
  try {
    return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    return undefined;
  }
}

/** Reads each file once, on its first request; undefined for a name that is not an asset or a missing file. */
export function assetReader() {
  let dir: string | undefined | null = null;
  const cache = new Map<string, Promise<string | undefined>>();
  return (name: string): Promise<string | undefined> => {
    if (!Object.hasOwn(DOCS_ASSETS, name)) return Promise.resolve(undefined);
    let text = cache.get(name);
    if (!text) {
      if (dir === null) dir = docsAssetsDir();
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
