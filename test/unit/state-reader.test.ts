import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import states from '../../fixtures/states.json' with { type: 'json' };
import { readStateDocument } from '../../src/control/state/state-reader.js';
import { ApiError } from '../../src/domain/errors.js';
import { type StateDocument, stateDocument } from '../../src/domain/records.js';
import { isFixtureState } from '../../src/store/fixtures.js';
import { upgradeState } from '../../src/store/upgrade.js';
import { A, B, memorySandbox } from '../support/sandbox.js';
import { currentState, expectUpgraded, inOldShapes, oldShapes } from '../support/store.js';

/** The embedded fixtures' state ids, as the sandbox reads a state with. */
const isState = isFixtureState({ states });

type Outcome = { ok: unknown } | { status: number; malformed: boolean };

/** What a reading answers, reduced to what must match: the document, or the kind of refusal. */
async function outcome(read: () => Promise<StateDocument> | StateDocument): Promise<Outcome> {
  try {
    return { ok: await read() };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, malformed: error.message === 'Malformed JSON body' };
  }
}

/**
 * The old way: one `JSON.parse`, one schema check of the whole document (each record in its current or an earlier
 * shape), then every record brought up to date.
 */
function whole(text: string): StateDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Malformed JSON body');
  }
  const parsed = stateDocument.safeParse(value);
  if (!parsed.success) throw new ApiError(400, 'invalid');
  return upgradeState(parsed.data, isState);
}

let exported: StateDocument;
let text: string;
beforeAll(async () => {
  const sandbox = await memorySandbox();
  exported = currentState().parse(JSON.parse(JSON.stringify(sandbox.store.exportState())));
  text = JSON.stringify(exported);
});

describe('readStateDocument', () => {
  it('reads an export as the whole parse does, however it is spaced or ordered', async () => {
    const { version, collections } = exported;
    const reordered = Object.fromEntries(Object.entries(collections).reverse());
    const forms = [
      text,
      JSON.stringify(exported, null, 2),
      JSON.stringify(exported, null, '\t').replaceAll('\n', '\r\n'),
      ` \n${text}\n\t `,
      JSON.stringify({ collections: reordered, version }),
      // Keys the schema does not know are dropped, as zod drops them; the last of a repeated key wins.
      `{"extra":[{"a":"[{\\""}],"version":2,${text.slice(1, -1)},"seq":7}`.replace(
        '"collections":{',
        '"collections":{"unknown":{"x":[1,{"y":"]"}]},"customers":[],',
      ),
    ];
    for (const form of forms) {
      expect(await readStateDocument(form, isState)).toEqual(whole(form));
    }
  });

  it('strings holding brackets, quotes, backslashes and escapes do not end a record early', async () => {
    const doc = structuredClone(exported);
    const names = ['a"]},{"b', 'back\\slash\\', '\\"', '\u2028 ] } [ {', '\\\\"]', 'emoji 🇳🇬'];
    doc.collections.customers = names.map((name, i) => ({
      ...(exported.collections.customers[0] ?? {
        id: '',
        businessId: '',
        phoneNo: '',
        email: '',
        dateCreated: '',
        nuban: '',
      }),
      id: `odd-${i}`,
      name,
    }));
    // The first name again, its quotes written as \u0022 escapes.
    const odd = JSON.stringify(doc).replace(JSON.stringify(names[0]), '"a\\u0022]},{\\u0022b"');
    expect(odd).toContain('\\u0022');
    expect(await readStateDocument(odd, isState)).toEqual(whole(odd));
    expect(
      (await readStateDocument(JSON.stringify(doc), isState)).collections.customers.map((c) => c.name),
    ).toEqual(names);
  });

  it('reads many batches, and gives the event loop turns while it does', async () => {
    const doc = structuredClone(exported);
    const template = exported.collections.customers[0];
    if (!template) throw new Error('the fixtures have no customer');
    doc.collections.customers = Array.from({ length: 40_000 }, (_, i) => ({ ...template, id: `c-${i}` }));
    const big = JSON.stringify(doc);
    let turns = 0;
    let reading = true;
    const tick = () => {
      turns++;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    const read = await readStateDocument(big, isState);
    reading = false;
    expect(read.collections.customers).toHaveLength(40_000);
    expect(read).toEqual(whole(big));
    expect(turns).toBeGreaterThan(1);
  });

  it('names the record and field that fail their schema', async () => {
    const doc = structuredClone(exported) as unknown as { collections: { customers: { nuban: unknown }[] } };
    const third = doc.collections.customers[2];
    if (!third) throw new Error('the fixtures have fewer than three customers');
    third.nuban = 42;
    const res = await outcome(() => readStateDocument(JSON.stringify(doc), isState));
    expect(res).toEqual({ status: 400, malformed: false });
    await expect(readStateDocument(JSON.stringify(doc), isState)).rejects.toThrow(
      /^collections\.customers\[2\]\.nuban is invalid/,
    );
    const { meta: _meta, ...withoutMeta } = exported.collections;
    await expect(
      readStateDocument(JSON.stringify({ version: 1, collections: withoutMeta }), isState),
    ).rejects.toThrow('collections.meta is required');
  });

  it.each([
    ['cut short', () => text.slice(0, -3)],
    ['a trailing comma in a collection', () => text.replace('"customers":[{', '"customers":[,{')],
    ['no comma between records', () => text.replace(/\},\{"id"/, '} {"id"')],
    ['garbage after the document', () => `${text} x`],
    ['a second document', () => `${text}{}`],
    ['an unquoted key', () => text.replace('"version"', 'version')],
    ['a broken record', () => text.replace('"businessId":', '"businessId"=')],
    ['empty', () => ''],
  ])('%s: 400 Malformed JSON body', async (_name, make) => {
    const res = await outcome(() => readStateDocument(make(), isState));
    expect(res).toEqual({ status: 400, malformed: true });
  });

  /** One cut, deletion or insertion of a structural character at `at`. */
  const mutate = (doc: string, at: number, kind: number, char: string) =>
    kind === 0
      ? doc.slice(0, at)
      : kind === 1
        ? doc.slice(0, at) + doc.slice(at + 1)
        : doc.slice(0, at) + char + doc.slice(at);
  const structural = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', '1', 'n'];

  it.each([
    ['a small document', 3, 400],
    // Several batches: a mutation lands inside one, or between two.
    ['a document of several batches', 4_000, 25],
  ])(
    'answers every cut, deletion or insertion in %s as the whole parse would',
    async (_name, count, numRuns) => {
      const template = exported.collections.customers[0];
      if (!template) throw new Error('the fixtures have no customer');
      const doc = JSON.stringify({
        version: 1,
        collections: {
          ...exported.collections,
          customers: Array.from({ length: count }, (_, i) => ({ ...template, id: `m-${i}` })),
        },
      });
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: doc.length }),
          fc.integer({ min: 0, max: 2 }),
          fc.constantFrom(...structural),
          async (at, kind, char) => {
            const mutated = mutate(doc, at, kind, char);
            expect(await outcome(() => readStateDocument(mutated, isState))).toEqual(
              await outcome(() => whole(mutated)),
            );
          },
        ),
        { numRuns, seed: 13 },
      );
    },
  );
});

describe('readStateDocument: a document an earlier version wrote', () => {
  /** The payout accounts the fixtures give, which the export holds beside the old ones a test adds. */
  const fixturePayouts = new Set<string>();
  beforeAll(() => {
    for (const p of exported.collections.payouts) fixturePayouts.add(p.id);
  });
  const shapes = oldShapes({ clientId: A.id, businessId: A.a1.id, transactionId: 'old-transaction' });

  it('reads the old shapes as the current ones, as the whole parse does', async () => {
    const old = JSON.stringify(inOldShapes(exported, shapes));
    expect(old).not.toContain('"subscriptions"');
    const read = await readStateDocument(old, isState);
    expectUpgraded(read, shapes);
    // Every record now fits its current schema.
    expect(currentState().parse(read)).toEqual(read);
    expect(read).toEqual(whole(old));
    // Records that did not change are read as they are.
    expect(read.collections.businesses).toEqual(exported.collections.businesses);
    expect(read.collections.customers).toEqual(exported.collections.customers);
  });

  it("gives an old payout account the client of its business: B's for B1", async () => {
    const ofB = oldShapes({ clientId: B.id, businessId: B.b1.id, transactionId: 't' }, 'old-b');
    const read = await readStateDocument(JSON.stringify(inOldShapes(exported, ofB)), isState);
    // Beside the payout account the fixtures give A, in the current shape already.
    expect(read.collections.payouts.filter((p) => !fixturePayouts.has(p.id))).toEqual([
      { ...ofB.upgraded.payouts[0], clientId: B.id },
    ]);
  });

  it('gives a payout account of a business the document does not hold no client', async () => {
    const orphan = oldShapes({ clientId: A.id, businessId: 'gone-business', transactionId: 't' });
    const read = await readStateDocument(JSON.stringify(inOldShapes(exported, orphan)), isState);
    expect(read.collections.payouts.filter((p) => !fixturePayouts.has(p.id)).map((p) => p.clientId)).toEqual([
      '',
    ]);
  });

  it('leaves records already in the current shapes as they are, beside old ones', async () => {
    const doc = inOldShapes(exported, shapes);
    const current = oldShapes(
      { clientId: A.id, businessId: A.a1.id, transactionId: 'old-transaction' },
      'new',
    );
    for (const [name, records] of Object.entries(current.upgraded)) doc.collections[name]?.push(...records);
    const read = await readStateDocument(JSON.stringify(doc), isState);
    expectUpgraded(read, shapes);
    expectUpgraded(read, current);
    expect(read.collections.audits).toHaveLength(
      shapes.upgraded.audits.length * 2 + exported.collections.audits.length,
    );
  });

  it('may lack the collections added since (subscriptions), not the others', async () => {
    const { subscriptions: _later, ...withoutLater } = exported.collections;
    const read = await readStateDocument(JSON.stringify({ version: 1, collections: withoutLater }), isState);
    expect(read.collections.subscriptions).toEqual([]);
    const { users: _users, ...withoutUsers } = exported.collections;
    await expect(
      readStateDocument(JSON.stringify({ version: 1, collections: withoutUsers }), isState),
    ).rejects.toThrow('collections.users is required');
  });

  it('refuses a record in neither shape, naming it', async () => {
    const doc = inOldShapes(exported, shapes);
    const [payout] = shapes.records.payouts;
    const { businessId: _gone, ...neither } = payout ?? {};
    doc.collections.payouts = [neither];
    const res = await outcome(() => readStateDocument(JSON.stringify(doc), isState));
    expect(res).toEqual({ status: 400, malformed: false });
    await expect(readStateDocument(JSON.stringify(doc), isState)).rejects.toThrow(
      /^collections\.payouts\[0\]/,
    );
  });
});

describe('state ids written before the docs’ form', () => {
  it('become state_NN where the fixtures have that id and not the number, and stay as they are otherwise', async () => {
    const numbered = structuredClone(exported);
    const [first] = numbered.collections.businesses;
    if (!first) throw new Error('the export holds businesses');
    first.stateId = '7';
    const read = await readStateDocument(JSON.stringify(numbered), isState);
    expect(read.collections.businesses[0]?.stateId).toBe('state_07');
    // Fixtures of one's own that still number their states: the id is theirs, and stays.
    const ownFixtures = isFixtureState({ states: [{ id: '7', name: 'Bayelsa' }] });
    const kept = await readStateDocument(JSON.stringify(numbered), ownFixtures);
    expect(kept.collections.businesses[0]?.stateId).toBe('7');
    // A number the fixtures have under neither name is left alone too.
    first.stateId = '99';
    expect(
      (await readStateDocument(JSON.stringify(numbered), isState)).collections.businesses[0]?.stateId,
    ).toBe('99');
  });
});
