import { existsSync } from 'node:fs';
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
