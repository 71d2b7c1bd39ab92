import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { readStateDocument } from '../../src/control/state/state-reader.js';
import { ApiError } from '../../src/domain/errors.js';
import { type StateDocument, stateDocument } from '../../src/store/records.js';
import { memorySandbox } from '../support/sandbox.js';

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

/** The old way: one `JSON.parse`, one schema check of the whole document. */
function whole(text: string): StateDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Malformed JSON body');
  }
  const parsed = stateDocument.safeParse(value);
  if (!parsed.success) throw new ApiError(400, 'invalid');
  return parsed.data;
}

let exported: StateDocument;
let text: string;
beforeAll(async () => {
  const sandbox = await memorySandbox();
  exported = JSON.parse(JSON.stringify(sandbox.store.exportState())) as StateDocument;
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
      expect(await readStateDocument(form)).toEqual(whole(form));
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
    expect(await readStateDocument(odd)).toEqual(whole(odd));
    expect((await readStateDocument(JSON.stringify(doc))).collections.customers.map((c) => c.name)).toEqual(
      names,
    );
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
    const read = await readStateDocument(big);
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
    const res = await outcome(() => readStateDocument(JSON.stringify(doc)));
    expect(res).toEqual({ status: 400, malformed: false });
    await expect(readStateDocument(JSON.stringify(doc))).rejects.toThrow(
      /^collections\.customers\.2\.nuban is invalid/,
    );
    const { meta: _meta, ...withoutMeta } = exported.collections;
    await expect(readStateDocument(JSON.stringify({ version: 1, collections: withoutMeta }))).rejects.toThrow(
      'collections.meta is required',
    );
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
    const res = await outcome(() => readStateDocument(make()));
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
            expect(await outcome(() => readStateDocument(mutated))).toEqual(
              await outcome(() => whole(mutated)),
            );
          },
        ),
        { numRuns, seed: 13 },
      );
    },
  );
});
