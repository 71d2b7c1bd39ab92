// `npm test`'s `layers` step, and `node scripts/layers.mjs [depcruise options]` alone: dependency-cruiser checks the
// house's layering (tools/house-layers.cjs) over src/. dependency-cruiser 16 reads .ts files through TypeScript's own
// compiler API, which TypeScript 7 (the project's) no longer has; so it is given TypeScript 5, installed under the
// alias `typescript5`, by sending its imports of `typescript` there. (dependency-cruiser 17 needs Node 22.)
import Module, { register } from 'node:module';

const fromCruiser = (parent) =>
  typeof parent === 'string' && parent.includes('/node_modules/dependency-cruiser/');
const renamed = (specifier) => specifier.replace(/^typescript(?=\/|$)/, 'typescript5');

// Its `import('typescript')`, through a resolve hook (run on the loader's thread, so written out as a data URL).
const hook = `export async function resolve(specifier, context, next) {
  const fromCruiser = ${fromCruiser.toString()};
  const renamed = ${renamed.toString()};
  return next(fromCruiser(context.parentURL) ? renamed(specifier) : specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
// Its `require('typescript/package.json')`, which checks the version, through the CommonJS resolver.
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  return resolveFilename.call(
    this,
    fromCruiser(parent?.filename) ? renamed(request) : request,
    parent,
    ...rest,
  );
};

process.chdir(new URL('..', import.meta.url).pathname);
const given = process.argv.slice(2);
process.argv = [
  process.argv[0],
  'depcruise',
  '--config',
  'tools/house-layers.cjs',
  '--ts-config',
  'tsconfig.json',
  // What the last run found is kept in node_modules/.cache, and only the files whose content changed since are
  // read again.
  ...(given.length > 0
    ? given
    : [
        '--output-type',
        'err',
        '--cache',
        'node_modules/.cache/dependency-cruiser',
        '--cache-strategy',
        'content',
        'src',
      ]),
];
await import(new URL('../node_modules/dependency-cruiser/bin/dependency-cruise.mjs', import.meta.url).href);
