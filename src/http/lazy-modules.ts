import type https from 'node:https';
import { createRequire } from 'node:module';
import type zlib from 'node:zlib';

// Node's modules that only some requests need, loaded when first used rather than imported: an import loads them
// (node:https loads TLS with it) at every start, and most starts never use them.

const load = createRequire(import.meta.url);
let loadedHttps: typeof https | undefined;
let loadedZlib: typeof zlib | undefined;

/** node:https: a webhook to an https receiver, an https upstream. */
export function lazyHttps(): typeof https {
  loadedHttps ??= load('node:https') as typeof https;
  return loadedHttps;
}

/** node:zlib: an upstream's compressed answer. */
export function lazyZlib(): typeof zlib {
  loadedZlib ??= load('node:zlib') as typeof zlib;
  return loadedZlib;
}
