// The house's layers, from the top down, as data: tools/house-layers.cjs makes dependency-cruiser's rules of them,
// and `npm run docs` CONTRIBUTING.md's layout table.

/** Top to bottom. `parts` are folders (`cli/`) and files (`main.ts`) of src/; `holds` is what the table says. */
const layers = [
  { parts: ['main.ts', 'index.ts'], holds: 'the binary and the package: what they export and start' },
  { parts: ['cli/', 'banner.ts'], holds: 'the command line and the lines the binary prints when it starts' },
  { parts: ['sandbox.ts'], holds: 'the wiring: opens the worlds and the app, hands out the handle, serves it (`createSandbox`, `startSandbox`)' },
  { parts: ['app.ts'], holds: "mounts the doors once and resolves each request's world" },
  {
    parts: ['worlds/'],
    holds: 'a world (store, clock, scenarios, journal, engines), its lifecycle (`openWorld`, `close`) and the registry of the root and the isolated worlds',
  },
  {
    parts: ['api/', 'control/', 'dashboard/', 'openapi/'],
    holds:
      'the four doors, side by side: the bank\'s API (`/api/v1`), the control API (`/__sandbox`), the dashboard (`/__sandbox/ui`) and the OpenAPI documents with the reference page',
  },
  { parts: ['bank/'], holds: "the bank's rules every door uses, one folder per capability" },
  { parts: ['engine/'], holds: 'background work: the bulk processor, the webhook dispatcher, the scheduler' },
  { parts: ['upstream/'], holds: 'the proxy to the real bank (`--upstream`) and its drift report' },
  {
    parts: ['http/'],
    holds: 'the kit every door uses: the front, auth, the envelope, the request journal, mounting a route, serving on a port',
  },
  { parts: ['deps.ts'], holds: "what a world's handlers are given: its store, clock, scenarios and log" },
  { parts: ['log.ts', 'log-events.ts'], holds: 'the log and every event it writes' },
  {
    parts: ['scenarios/', 'ledger/', 'config.ts'],
    holds: 'failure rules, the single write path for money, every setting in one schema',
  },
  { parts: ['log-catalogue.ts', 'options.ts'], holds: "the log events' catalogue and the command line's options" },
  { parts: ['store/'], holds: 'collections with undo, durability (the write-ahead journal, snapshots), the lock' },
  {
    parts: ['client/'],
    holds: 'the handle over HTTP, from the contracts, with no path written out, and in process over the app',
  },
  { parts: ['errors.ts'], holds: "the errors the package's users catch" },
  { parts: ['contract/'], holds: 'pure data: route contracts, wire schemas, failures, the scenarios\' schema' },
  { parts: ['domain/'], holds: 'pure rules with no I/O: fees, NUBAN, the clock, redaction, the bulk state table' },
];

module.exports = { layers };
