// The house's layering as dependency-cruiser rules, run by `npm test` (its `layers` step, `scripts/layers.mjs`).
// The layers below go from the top down: a part may import the parts of the layers below its own, never those
// above it, nor another part of its own layer (the doors stand side by side), so no folder imports one that
// imports it back. Type-only imports count too: an arrow is an arrow for a reader. Every folder and top-level
// file of src/ has its layer (test/unit/layers.test.ts); the layers are listed in tools/layers.cjs.

const { layers } = require('./layers.cjs');

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The paths of a part: a folder's files, or the file itself. */
const pathOf = (part) => (part.endsWith('/') ? `^src/${escape(part)}` : `^src/${escape(part)}$`);
const anyOf = (parts) => parts.map(pathOf).join('|');

const forbidden = [
  { name: 'no-cycle', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
  ...layers.flatMap(({ parts }, at) => {
    const above = layers.slice(0, at).flatMap((layer) => layer.parts);
    return [
      ...(above.length === 0
        ? []
        : [
            {
              name: 'arrows-point-down',
              comment: `${parts.join(', ')} may import only what is below them: ${above.join(', ')} are above`,
              severity: 'error',
              from: { path: anyOf(parts) },
              to: { path: anyOf(above) },
            },
          ]),
      ...parts.flatMap((part) =>
        parts.length === 1
          ? []
          : [
              {
                name: 'side-by-side',
                comment: `${part} stands beside ${parts.filter((p) => p !== part).join(', ')}: neither imports the other`,
                severity: 'error',
                from: { path: pathOf(part) },
                to: { path: anyOf(parts.filter((other) => other !== part)) },
              },
            ],
      ),
    ];
  }),
  {
    name: 'pure-below-hono',
    comment: 'the engines and the pure layers run without Hono',
    severity: 'error',
    from: { path: '^src/(engine|domain|contract|store|ledger|scenarios)/' },
    to: { path: '(^|/)node_modules/(hono|@hono)/' },
  },
  {
    name: 'domain-is-pure',
    comment: 'domain/ has no I/O: no store, no file system, no network (a clock may wait)',
    severity: 'error',
    from: { path: '^src/domain/' },
    to: { dependencyTypes: ['core'], pathNot: '^(node:)?(crypto|util|buffer|timers|timers/promises)$' },
  },
];

module.exports = {
  forbidden,
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)test/' },
  },
};
