import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_ASSETS, DOCS_ASSETS_FOLDER } from '../../src/openapi/assets.js';

// What the build puts in dist/ beside the bundle (scripts/build.mjs); the end-to-end project builds it first.

describe('the reference page', () => {
  it('has its assets in the built dist/, which the image carries instead of node_modules', () => {
    for (const file of Object.keys(DOCS_ASSETS)) {
      expect(existsSync(join('dist', DOCS_ASSETS_FOLDER, file)), file).toBe(true);
    }
  });
});

describe('the bundle', () => {
  it('imports none of the modules only some requests need, which every start would load', () => {
    // node:http2 the HTTP/1.1 server never needs; node:https and node:zlib are loaded when first used.
    const files = [
      'main.js',
      'index.js',
      ...readdirSync(join('dist', 'chunks')).map((f) => join('chunks', f)),
    ];
    const importing = files.filter(
      (file) =>
        file.endsWith('.js') &&
        /from\s*["']node:(http2|https|zlib)["']/.test(readFileSync(join('dist', file), 'utf8')),
    );
    expect(importing).toEqual([]);
  });
});
