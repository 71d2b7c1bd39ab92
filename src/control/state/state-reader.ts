import { setImmediate as nextTurn } from 'node:timers/promises';
import { ApiError } from '../../domain/errors.js';
import { parseInput } from '../../domain/parse.js';
import {
  type CollectionName,
  collectionNames,
  mayBeMissing,
  type StateDocument,
  stateDocument,
  storedRecordSchemas,
} from '../../domain/records.js';
import { upgradeState } from '../../store/upgrade.js';

/** Characters of records parsed in one go: about a millisecond of `JSON.parse`. */
const BATCH_CHARS = 256 * 1024;
/** Work done before other requests get a turn. */
const SLICE_MS = 8;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** JSON's four whitespace characters, and no others. */
const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** The text is not JSON: the answer is the one every JSON route gives. */
class Malformed extends Error {}
/** Valid so far, but not shaped as the reader expects (a collection that is not an array, ...): the whole parse says why. */
class OtherShape extends Error {}

/** A position in the document's text, and the few steps of JSON's grammar the reader takes itself. */
class Cursor {
  pos = 0;

  constructor(readonly text: string) {}

  get atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  /** The character code after any whitespace (NaN at the end). */
  peek(): number {
    while (isSpace(this.text.charCodeAt(this.pos))) this.pos++;
    return this.text.charCodeAt(this.pos);
  }

  expect(code: number): void {
    if (this.peek() !== code) throw new Malformed();
    this.pos++;
  }

  /** An object key. */
  key(): string {
    if (this.peek() !== QUOTE) throw new Malformed();
    const end = this.stringEnd(this.pos);
    const key = parseSlice(this.text, this.pos, end);
    if (typeof key !== 'string') throw new Malformed();
    this.pos = end;
    this.expect(COLON);
    return key;
  }

  /** Where the string opening at `from` ends (just after its closing quote). */
  stringEnd(from: number): number {
    let i = from + 1;
    for (;;) {
      const quote = this.text.indexOf('"', i);
      if (quote < 0) throw new Malformed();
      let backslashes = 0;
      while (this.text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return quote + 1;
      i = quote + 1;
    }
  }

  /**
   * Where the value starting at the cursor ends. Only its extent is found here, by brackets and strings (without
   * recursion, whatever the depth); `JSON.parse` of the extent checks everything else.
   */
  valueEnd(): number {
    const { text } = this;
    const start = this.pos;
    const first = text.charCodeAt(start);
    if (first === QUOTE) return this.stringEnd(start);
    if (first === OPEN_BRACE || first === OPEN_BRACKET) {
      let depth = 0;
      for (let i = start; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (code === QUOTE) i = this.stringEnd(i) - 1;
        else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
        else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
          depth--;
          if (depth === 0) return i + 1;
        }
      }
      throw new Malformed();
    }
    let i = start;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || isSpace(code)) break;
      i++;
    }
    if (i === start) throw new Malformed();
    return i;
  }

  /** Parses the value at the cursor in one piece and moves past it. */
  value(): unknown {
    this.peek();
    const end = this.valueEnd();
    const value = parseSlice(this.text, this.pos, end);
    this.pos = end;
    return value;
  }

  /** After a member or an element: true on a comma, false on the closing `close`. */
  more(close: number): boolean {
    const code = this.peek();
    this.pos++;
    if (code === COMMA) return true;
    if (code === close) return false;
    throw new Malformed();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Malformed();
  }
}

const parseSlice = (text: string, start: number, end: number) => parseJson(text.slice(start, end));

/** Gives other requests a turn once this one has worked for a slice of time. */
class Pacer {
  private since = performance.now();

  async pause(): Promise<void> {
    if (performance.now() - this.since < SLICE_MS) return;
    await nextTurn();
    this.since = performance.now();
  }
}

type Validated = Map<CollectionName, unknown[]>;

const isCollection = (name: string): name is CollectionName => Object.hasOwn(storedRecordSchemas, name);

/** A collection's array: parsed a batch of records at a time, each record checked against its schema. */
async function readRecords(cursor: Cursor, name: CollectionName, pacer: Pacer): Promise<unknown[]> {
  const schema = storedRecordSchemas[name];
  const { text } = cursor;
  const records: unknown[] = [];
  cursor.pos++;
  if (cursor.peek() === CLOSE_BRACKET) {
    cursor.pos++;
    return records;
  }
  const flush = async (start: number, end: number) => {
    // The records and the commas between them, read as one array: one call instead of one per record.
    const batch = parseJson(`[${text.slice(start, end)}]`) as unknown[];
    const checked = batch.map((record, i) =>
      parseInput(schema, record, ['collections', name, records.length + i]),
    );
    // Kept as their JSON text parsed back, as the store keeps every record it writes: zod's output builds each
    // object property by property, with a backing array of its own (after an import of 100 000 records, 11 MB
    // more heap than a restart holding the same state, in heap snapshots of the soak benchmark's leak check).
    // Here, a batch at a time between the pauses, rather than the whole document in the store's one swap.
    for (const record of JSON.parse(JSON.stringify(checked)) as unknown[]) records.push(record);
    await pacer.pause();
  };
  let batchStart = cursor.pos;
  for (;;) {
    cursor.peek();
    const end = cursor.valueEnd();
    cursor.pos = end;
    if (!cursor.more(CLOSE_BRACKET)) {
      await flush(batchStart, end);
      return records;
    }
    if (cursor.pos - batchStart >= BATCH_CHARS) {
      await flush(batchStart, end);
      batchStart = cursor.pos;
    }
  }
}

/** The `collections` object; keys that name no collection are read (they must be JSON) and dropped. */
async function readCollections(cursor: Cursor, pacer: Pacer): Promise<Validated> {
  const collections: Validated = new Map();
  cursor.pos++;
  if (cursor.peek() === CLOSE_BRACE) {
    cursor.pos++;
    return collections;
  }
  do {
    const key = cursor.key();
    if (!isCollection(key)) cursor.value();
    else if (cursor.peek() !== OPEN_BRACKET) throw new OtherShape();
    else collections.set(key, await readRecords(cursor, key, pacer));
  } while (cursor.more(CLOSE_BRACE));
  return collections;
}

async function readStreaming(text: string, isState: (id: string) => boolean): Promise<StateDocument> {
  const cursor = new Cursor(text);
  const pacer = new Pacer();
  if (cursor.peek() !== OPEN_BRACE) throw new OtherShape();
  cursor.pos++;
  let version: unknown;
  let collections: Validated | undefined;
  if (cursor.peek() === CLOSE_BRACE) cursor.pos++;
  else {
    do {
      const key = cursor.key();
      if (key !== 'collections') {
        const value = cursor.value();
        if (key === 'version') version = value;
      } else if (cursor.peek() !== OPEN_BRACE) throw new OtherShape();
      else collections = await readCollections(cursor, pacer);
    } while (cursor.more(CLOSE_BRACE));
  }
  cursor.peek();
  if (!cursor.atEnd) throw new Malformed();
  parseInput(stateDocument.shape.version, version, ['version']);
  if (!collections) throw new OtherShape();
  for (const name of collectionNames) {
    if (!collections.has(name) && !mayBeMissing(name)) {
      throw new ApiError(400, `collections.${name} is required`, [
        { field: `collections.${name}`, message: 'is required' },
      ]);
    }
  }
  // Every record was parsed by its collection's schema above (the current shape or an earlier one).
  return upgradeState({ version: 1, collections: Object.fromEntries(collections) }, isState);
}

/**
 * Reads and validates a state document (`PUT /__sandbox/state`) from its JSON text, a batch of records at a time,
 * giving other requests a turn every few milliseconds: one `JSON.parse` and one schema check of a document at the
 * import limit held the event loop for over a second. It answers as parsing the whole text would: 400
 * `Malformed JSON body`, or 400 naming the first field that fails its schema. A document shaped otherwise than
 * `{version, collections: {name: [records]}}` is parsed whole, so its error reads the same as before.
 */
export async function readStateDocument(
  text: string,
  isState: (id: string) => boolean,
): Promise<StateDocument> {
  try {
    return await readStreaming(text, isState);
  } catch (error) {
    if (error instanceof Malformed) throw new ApiError(400, 'Malformed JSON body');
    if (!(error instanceof OtherShape)) throw error;
  }
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw new ApiError(400, 'Malformed JSON body');
  }
  // Its records as their JSON text parsed back too (see `readRecords`).
  return upgradeState(JSON.parse(JSON.stringify(parseInput(stateDocument, value))), isState);
}
