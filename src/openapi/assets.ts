import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { type AssetTypes, assetReader } from '../http/static-assets.js';
import { nearestFolder } from '../store/nearest-folder.js';

/** The files of `swagger-ui-dist` the reference page loads, with their content types. */
export const DOCS_ASSETS: AssetTypes = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
};

/** The folder `scripts/build.mjs` copies them to, beside the bundle (the image has no node_modules). */
export const DOCS_ASSETS_FOLDER = 'docs-assets';

/**
 * Where the files are: the nearest `docs-assets/` above this module (`dist/` when bundled), else the
 * `swagger-ui-dist` package in node_modules (running from source).
 */
export function docsAssetsDir(): string | undefined {
  const copied = nearestFolder(import.meta.url, DOCS_ASSETS_FOLDER, 'swagger-ui-bundle.js');
  if (copied) return copied;
  try {
    return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    return undefined;
  }
}

/** Reads each docs asset once, on its first request. */
export const docsAssetReader = () => assetReader(DOCS_ASSETS, docsAssetsDir);
