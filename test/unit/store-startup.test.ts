import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { StateFileError, StateFileInUseError } from '../../src/store/write-error.js';
import { baseState, customer } from '../support/store.js';

let dir: string;
let file: string;
let wal: string;
const open = () => Store.open({ file, compactAfterBytes: 1 << 30, initialState: async () => baseState() });

/** Every file in the folder, with its bytes. */
async function folder(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) out[name] = await readFile(join(dir, name), 'latin1');
  return out;
}

const snapshotOf = (mutate: (doc: Record<string, unknown>) => void = () => {}) => {
  const doc: Record<string, unknown> = { ...baseState(), seq: 0 };
  mutate(doc);
  return JSON.stringify(doc);
};
const entry = (q: number, ops: unknown[]) => `${JSON.stringify({ q, o: ops })}\n`;
const put = (q: number, id: string, record: unknown = customer(id)) => entry(q, [['customers', id, record]]);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-startup-'));
  file = join(dir, 'db.json');
  wal = `${file}.wal`;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('start-up refuses state it cannot load, and changes no file', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    [
      'a snapshot holding null',
      { 'db.json': 'null' },
      /db\.json: is not a sandbox state \(expected a JSON object, found null\)$/,
    ],
    ['a snapshot holding false', { 'db.json': 'false' }, /db\.json: is not a sandbox state .*found false\)$/],
    [
      'a snapshot holding 0',
      { 'db.json': '0', 'db.json.wal': put(1, 'c1') },
      /db\.json: is not a sandbox state .*found 0\)$/,
    ],
    ['a snapshot holding an array', { 'db.json': '[]' }, /db\.json: is not a sandbox state/],
    ['a snapshot cut short', { 'db.json': '{"version":1,"seq":0,"coll' }, /db\.json: is not valid JSON \(/],
    ['an empty snapshot', { 'db.json': '' }, /db\.json: is not valid JSON/],
    [
      'a snapshot of another version',
      {
        'db.json': snapshotOf((d) => {
          d.version = 2;
        }),
      },
      /db\.json: is not a sandbox state of version 1 \(version 2\)$/,
    ],
    [
      'a snapshot without its sequence number',
      {
        'db.json': snapshotOf((d) => {
          delete d.seq;
        }),
      },
      /db\.json: its "seq" must be a whole number/,
    ],
    [
      'a snapshot without its meta record',
      {
        'db.json': snapshotOf((d) => {
          (d.collections as Record<string, unknown[]>).meta = [];
        }),
      },
      /db\.json: must hold exactly one meta record \(seed and token key\), found 0$/,
    ],
    [
      'a snapshot with a record that fails its schema',
      {
        'db.json': snapshotOf((d) => {
          (d.collections as Record<string, unknown[]>).customers = [
            customer('c1'),
            { ...customer('c2'), name: 42 },
          ];
        }),
      },
      /db\.json: record customers\[1\] \(id c2\)\.name: .+/,
    ],
    [
      'a snapshot without a collection',
      {
        'db.json': snapshotOf((d) => {
          delete (d.collections as Record<string, unknown[]>).bulkItems;
        }),
      },
      /db\.json: collections\.bulkItems: .+/,
    ],
    [
      'a journal without its snapshot',
      { 'db.json.wal': put(1, 'c1') },
      /db\.json\.wal: holds changes but its snapshot .*db\.json is missing/,
    ],
    [
      'a journal line that is not JSON, in the middle of a journal without a final newline',
      { 'db.json': snapshotOf(), 'db.json.wal': `${put(1, 'c1')}garbage\n${put(3, 'c3').trimEnd()}` },
      /db\.json\.wal: line 2 is not valid JSON; the journal is corrupt$/,
    ],
    [
      'a journal entry of another shape',
      { 'db.json': snapshotOf(), 'db.json.wal': '{"seq":1,"ops":[]}\n' },
      /db\.json\.wal: line 1 is not a journal entry/,
    ],
    [
      'a journal record that fails its schema',
      {
        'db.json': snapshotOf(),
        'db.json.wal': put(1, 'c1') + entry(2, [['businesses', 'b1', { id: 'b1', balance: 'lots' }]]),
      },
      /db\.json\.wal: line 2, change 0: record businesses b1\.\w+: .+/,
    ],
    [
      'a journal change to an unknown collection',
      { 'db.json': snapshotOf(), 'db.json.wal': entry(1, [['ghosts', 'g1', { id: 'g1' }]]) },
      /db\.json\.wal: line 1, change 0: names an unknown collection "ghosts"$/,
    ],
    [
      'a journal record under another id',
      { 'db.json': snapshotOf(), 'db.json.wal': put(1, 'c1', customer('c2')) },
      /db\.json\.wal: line 1, change 0: record customers c1 carries another id$/,
    ],
  ];

  it.each(cases)('%s', async (_, files, message) => {
    // A stale temporary file too: it must stay as it is when the start is refused.
    const all = { ...files, 'db.json.tmp': '{"half a snap' };
    for (const [name, text] of Object.entries(all)) await writeFile(join(dir, name), text, 'latin1');
    const before = await folder();
    const error = await open().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StateFileError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(dir);
    expect((error as Error).message).not.toContain('\n');
    expect(await folder()).toEqual(before);
  });
});

describe('start-up tidies only once everything was read', () => {
  it('cuts a torn last line after every line before it loaded, and removes stale temporary files', async () => {
    await writeFile(file, snapshotOf());
    await writeFile(wal, `${put(1, 'c1')}${put(2, 'c2')}{"q":3,"o":[["customers"`);
    await writeFile(`${file}.tmp`, '{"half');
    await writeFile(`${wal}.tmp`, '{"q":');
    const store = await open();
    expect(store.all('customers').map((c) => c.id)).toEqual(['c1', 'c2']);
    await store.close();
    expect(await folder()).toEqual({ 'db.json': snapshotOf(), 'db.json.wal': put(1, 'c1') + put(2, 'c2') });
  });

  it('starts afresh beside an empty journal (a first start that stopped before its snapshot)', async () => {
    await writeFile(wal, '');
    const store = await open();
    expect(store.count('meta')).toBe(1);
    await store.close();
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ version: 1, seq: 0 });
  });
});

describe('one store per state file', () => {
  it('refuses a second store on a file in use and changes no file; the first goes on, and its lock goes at close', async () => {
    const first = await open();
    await first.mutate((tx) => tx.put('customers', customer('c1')));
    const before = await folder();
    expect(Object.keys(before)).toEqual(['db.json', 'db.json.lock', 'db.json.wal']);

    const error = await open().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StateFileInUseError);
    expect((error as Error).message).toBe(`${file} is in use by process ${process.pid} (lock ${file}.lock)`);
    expect(await folder()).toEqual(before);

    await first.mutate((tx) => tx.put('customers', customer('c2')));
    await first.close();
    expect(Object.keys(await folder())).toEqual(['db.json', 'db.json.wal']);
    const second = await open();
    expect(second.all('customers').map((c) => c.id)).toEqual(['c1', 'c2']);
    await second.close();
  });
});

describe('a state file that is a symbolic link', () => {
  it('stays a link through a first start, writes, a snapshot and a restart: every file is written beside its target', async () => {
    // db.json → via/db.json → ../b/state.json, where via is itself a link to deep/a: the target is deep/b/state.json
    // (not b/state.json, as the path's text would have it), and does not exist yet.
    await mkdir(join(dir, 'deep', 'a'), { recursive: true });
    await symlink(join(dir, 'deep', 'a'), join(dir, 'via'));
    await symlink('../b/state.json', join(dir, 'deep', 'a', 'db.json'));
    await symlink('via/db.json', file);
    const target = join(dir, 'deep', 'b', 'state.json');

    const store = await open();
    await store.mutate((tx) => tx.put('customers', customer('c1')));
    expect(await readdir(join(dir, 'deep', 'b'))).toEqual([
      'state.json',
      'state.json.lock',
      'state.json.wal',
    ]);
    // A whole new state: the snapshot is written aside and renamed onto the target.
    const doc = baseState();
    doc.collections.customers = [customer('c2')];
    await store.replaceState(doc);
    await store.mutate((tx) => tx.put('customers', customer('c3')));
    await store.close();

    const reopened = await open();
    expect(reopened.all('customers').map((c) => c.id)).toEqual(['c2', 'c3']);
    await reopened.close();
    expect((await lstat(file)).isSymbolicLink()).toBe(true);
    expect(await readlink(file)).toBe('via/db.json');
    expect((await lstat(join(dir, 'deep', 'a', 'db.json'))).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(target, 'utf8'))).toMatchObject({ version: 1 });
    expect((await readdir(dir)).sort()).toEqual(['db.json', 'deep', 'via']);
    expect(await readdir(join(dir, 'deep', 'a'))).toEqual(['db.json']);
    expect(await readdir(join(dir, 'deep', 'b'))).toEqual(['state.json', 'state.json.wal']);
  });
});
