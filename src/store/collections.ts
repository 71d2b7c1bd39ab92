import { Random, seedState } from '../domain/random.js';
import {
  type CollectionName,
  type Collections,
  collectionNames,
  type IndexName,
  indexedFields,
  indexedValues,
  type MetaRecord,
  type StateDocument,
} from '../domain/records.js';
import type { JournalEntry, Op } from './journal.js';
import { StringPool, settleRecord } from './string-pool.js';
import { type UpgradeContext, upgradeRecord } from './upgrade.js';

/** What a mutation may do: read anything, put and delete records, draw from the seeded generator. */
export interface Tx {
  get<K extends CollectionName>(collection: K, id: string): Collections[K] | undefined;
  where<K extends CollectionName>(collection: K, field: IndexName<K>, value: unknown): Collections[K][];
  /** How many records `where` would answer, without gathering them. */
  countWhere<K extends CollectionName>(collection: K, field: IndexName<K>, value: unknown): number;
  /** The records `where` would answer, one at a time: the caller may stop early, or delete the current one. */
  eachWhere<K extends CollectionName>(
    collection: K,
    field: IndexName<K>,
    value: unknown,
  ): Iterable<Collections[K]>;
  put<K extends CollectionName>(collection: K, record: Collections[K]): void;
  delete(collection: CollectionName, id: string): void;
  random(): Random;
}

/** One record a committed mutation wrote or deleted. */
export interface StoreChange {
  collection: CollectionName;
  id: string;
  /** The record did not exist before this change (an insert). */
  created: boolean;
}
/** Told of every committed mutation's changes, or `replaced` when the whole state was (reset, import). */
export type StoreListener = (changes: readonly StoreChange[] | 'replaced') => void;

type Maps = { [K in CollectionName]: Map<string, Collections[K]> };
type Index = Map<unknown, Set<string>>;

/**
 * One index of a collection: the ids of the records holding each value that `valueIn` reads from a record. A field's
 * index holds `undefined` too, as a value; an indexed value's (`indexedValues`) leaves out the records without one.
 */
interface KeptIndex {
  valueIn: (record: Record<string, unknown>) => unknown;
  skipsUndefined: boolean;
  ids: Index;
}

/** The indexes a collection keeps, by the name `where` is given: its indexed fields' and its indexed values'. */
function emptyIndexes(collection: CollectionName): Map<string, KeptIndex> {
  const fields = (indexedFields as Record<string, readonly string[] | undefined>)[collection] ?? [];
  const values = (indexedValues as Record<string, Record<string, (record: never) => unknown> | undefined>)[
    collection
  ];
  const kept = new Map<string, KeptIndex>();
  for (const field of fields)
    kept.set(field, { valueIn: (record) => record[field], skipsUndefined: false, ids: new Map() });
  for (const [name, valueIn] of Object.entries(values ?? {}))
    kept.set(name, { valueIn: valueIn as KeptIndex['valueIn'], skipsUndefined: true, ids: new Map() });
  return kept;
}

/** What one mutation changed: each change as its journal text, as its listeners hear it, and how to take it back. */
export class ChangeLog {
  /** Each change as its journal text. */
  readonly ops: string[] = [];
  readonly changes: StoreChange[] = [];
  /** One step back per change, oldest first. */
  readonly undos: (() => void)[] = [];
  random: Random | null = null;

  /** Takes every change back, newest first. */
  undo(): void {
    for (let i = this.undos.length - 1; i >= 0; i--) this.undos[i]?.();
  }
}

/**
 * The state in memory: one Map per collection, its indexes kept true through every change, records frozen and
 * sharing their short strings, and the listeners told of each commit. A mutation runs in a transaction
 * (`transact`) whose change log can take it back; what becomes of the log (a journal line, or nothing in memory)
 * is the subclass's (`Store`). Reads are public; every change is protected, so that the store's facade is the one
 * way in.
 */
export class MemoryCollections {
  private maps = {} as Maps;
  private readonly indexes = new Map<string, Map<string, KeptIndex>>();
  /** The short strings records share (see `StringPool`). */
  private readonly strings = new StringPool();
  /** The sequence number of the last commit the state holds. */
  protected seq = 0;
  private tx: ChangeLog | null = null;
  /** What a mutation's function is given; one for every mutation, as the open transaction is `tx`. */
  protected readonly txApi: Tx;
  private readonly listeners = new Set<StoreListener>();
  /** What `upgradeRecord` looks up: the client of a business loaded so far, and the fixtures' state ids. */
  private readonly upgrade: UpgradeContext;

  /**
   * `isState` tells whether a state id is one of the fixtures', for bringing a record written by an earlier
   * version up to date (`upgrade.ts`); without it, every id counts as one and none is renamed.
   */
  constructor(
    isState?: (id: string) => boolean,
    /** Whether each change is written as a journal line (a file store); in memory, none is. */
    private readonly journaled = true,
    /** Mixed into the state's seed for every draw (an isolated sandbox's own: see `saltOf`); 0 for the root. */
    private readonly salt = 0,
  ) {
    this.upgrade = {
      clientOf: (businessId) => this.maps.businesses?.get(businessId)?.clientId,
      isState: (id) => isState?.(id) ?? true,
    };
    this.txApi = {
      get: (collection, id) => this.get(collection, id),
      where: (collection, field, value) => this.where(collection, field, value),
      countWhere: (collection, field, value) => this.countWhere(collection, field, value),
      eachWhere: (collection, field, value) => this.eachWhere(collection, field, value),
      put: (collection, record) => this.txPut(collection, record),
      delete: (collection, id) => this.txDelete(collection, id),
      random: () => this.txRandom(),
    };
  }

  get<K extends CollectionName>(collection: K, id: string): Collections[K] | undefined {
    return this.maps[collection].get(id);
  }

  /** Every record of a collection, in insertion order. */
  all<K extends CollectionName>(collection: K): Collections[K][] {
    return [...this.maps[collection].values()];
  }

  count(collection: CollectionName): number {
    return this.maps[collection].size;
  }

  /** Records whose indexed `field` equals `value`, in insertion order. */
  where<K extends CollectionName>(collection: K, field: IndexName<K>, value: unknown): Collections[K][] {
    const ids = this.idsWhere(collection, field, value);
    if (!ids) return [];
    const out: Collections[K][] = [];
    for (const id of ids) {
      const record = this.maps[collection].get(id);
      if (record) out.push(record);
    }
    return out;
  }

  /** How many records `where` would answer. */
  countWhere<K extends CollectionName>(collection: K, field: IndexName<K>, value: unknown): number {
    return this.idsWhere(collection, field, value)?.size ?? 0;
  }

  /** The records `where` would answer, lazily, in insertion order. */
  *eachWhere<K extends CollectionName>(
    collection: K,
    field: IndexName<K>,
    value: unknown,
  ): Generator<Collections[K]> {
    const ids = this.idsWhere(collection, field, value);
    if (!ids) return;
    for (const id of ids) {
      const record = this.maps[collection].get(id);
      if (record) yield record;
    }
  }

  private idsWhere(collection: CollectionName, field: string, value: unknown): Set<string> | undefined {
    const index = this.indexes.get(collection)?.get(field);
    if (!index) throw new Error(`${collection}.${field} is not indexed`);
    return index.ids.get(value);
  }

  /** The meta record (seed, generator state, token key). */
  meta(): MetaRecord {
    const meta = this.maps.meta.get('meta');
    if (!meta) throw new Error('state has no meta record');
    return meta;
  }

  /**
   * Calls `listener` after each committed mutation (synchronously, once its journal line is queued, before it is
   * durable), after a reset or import, and after changes that could not be written were undone. Answers the
   * unsubscribe function. A listener must be quick, and must not mutate.
   */
  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The whole state as a document (records are shared, frozen). */
  exportState(): StateDocument {
    const collections = {} as Record<CollectionName, unknown[]>;
    for (const name of collectionNames) collections[name] = this.all(name);
    return { version: 1, collections } as StateDocument;
  }

  /** Tells the listeners, after the change is in the journal's queue; a listener that throws is not our failure. */
  protected emit(changes: readonly StoreChange[] | 'replaced'): void {
    for (const listener of this.listeners) {
      try {
        listener(changes);
      } catch {
        // A listener's own failure must not turn a committed change into an error for the caller.
      }
    }
  }

  /**
   * Runs `fn` as one transaction whose changes go into `log` as they are made: it must be synchronous. If it
   * throws, every change it made is undone and the error is rethrown.
   */
  protected transact<T>(fn: (tx: Tx) => T, log: ChangeLog): T {
    if (this.tx) throw new Error('mutate() cannot be nested');
    this.tx = log;
    try {
      return fn(this.txApi);
    } catch (error) {
      log.undo();
      throw error;
    } finally {
      this.tx = null;
    }
  }

  /**
   * Makes `doc` the whole state and answers how to put back the one it replaced. The document's records become the
   * state's, frozen: the caller hands them over.
   */
  protected replace(doc: StateDocument): () => void {
    if (this.tx) throw new Error('replaceState() inside mutate()');
    const previous = { maps: this.maps, indexes: new Map(this.indexes) };
    // The records given become the state, frozen, in this one synchronous step: an import hands over records it
    // already made compact (see `readStateDocument`), and copying a whole document here would hold the event loop.
    this.load(doc);
    return () => this.restore(previous);
  }

  /**
   * Replaces the whole state with `doc`. The new maps and indexes are built aside and swapped in only when
   * complete, so a document that fails half way (it should not: imports are validated first) changes nothing.
   */
  protected load(doc: Pick<StateDocument, 'collections'>): void {
    const previous = { maps: this.maps, indexes: new Map(this.indexes) };
    this.maps = {} as Maps;
    this.indexes.clear();
    try {
      for (const name of collectionNames) {
        (this.maps as Record<string, Map<string, unknown>>)[name] = new Map();
        this.indexes.set(name, emptyIndexes(name));
        for (const record of doc.collections[name] ?? [])
          this.apply(name, (record as { id: string }).id, upgradeRecord(name, record, this.upgrade));
      }
    } catch (error) {
      this.restore(previous);
      throw error;
    }
  }

  private restore(previous: { maps: Maps; indexes: Map<string, Map<string, KeptIndex>> }): void {
    this.maps = previous.maps;
    this.indexes.clear();
    for (const [name, index] of previous.indexes) this.indexes.set(name, index);
  }

  /**
   * Applies a journal entry the state does not hold yet (its records were checked by the loader; one an earlier
   * version wrote is brought up to date).
   */
  protected replay(entry: JournalEntry): void {
    if (entry.q <= this.seq) return;
    for (const [collection, id, record] of entry.o) {
      const name = collection as CollectionName;
      this.apply(name, id, upgradeRecord(name, record, this.upgrade));
    }
    this.seq = entry.q;
  }

  /**
   * Sets (or with `record` null deletes) one record and keeps the indexes true. `known` is the record it replaces
   * (null: none), where the caller has looked it up already: a lookup less in a map that may hold every transaction.
   */
  private apply(collection: CollectionName, id: string, record: unknown, known?: object | null): void {
    const map = this.maps[collection] as Map<string, unknown>;
    const previous = (known === undefined ? map.get(id) : (known ?? undefined)) as
      | Record<string, unknown>
      | undefined;
    // Settled first, so that the indexes' keys are the pool's copies of the strings too.
    const next =
      record === null ? null : (settleRecord(record, this.strings, previous) as Record<string, unknown>);
    const indexes = this.indexes.get(collection);
    if (indexes && indexes.size > 0) {
      for (const { valueIn, skipsUndefined, ids } of indexes.values()) {
        const now = next ? valueIn(next) : undefined;
        if (previous) {
          const was = valueIn(previous);
          // Most changes leave a record's indexed values as they were, and its id where it is already.
          if (next && was === now) continue;
          ids.get(was)?.delete(id);
        }
        if (next && !(skipsUndefined && now === undefined)) {
          const holding = ids.get(now);
          if (holding) holding.add(id);
          else ids.set(now, new Set([id]));
        }
      }
    }
    if (next === null) map.delete(id);
    else map.set(id, next);
  }

  private txPut<K extends CollectionName>(collection: K, record: Collections[K]): void {
    this.recordChange(collection, (record as { id: string }).id, record);
  }

  private txDelete(collection: CollectionName, id: string): void {
    this.recordChange(collection, id, null);
  }

  private recordChange(collection: CollectionName, id: string, record: unknown): void {
    const tx = this.tx;
    if (!tx) throw new Error('records can only change inside mutate()');
    const previous = this.maps[collection].get(id) ?? null;
    tx.undos.push(() => this.apply(collection, id, previous));
    tx.changes.push({ collection, id, created: previous === null && record !== null });
    if (!this.journaled) {
      // In memory, nothing is written and nothing restarts: the record is kept as given (settled, so frozen and
      // sharing its short strings), which spares every write a JSON text and its parse.
      tx.ops.push('');
      this.apply(collection, id, record, previous);
      return;
    }
    // The record is kept as its journal text parsed back, not as the object the caller built: the state in
    // memory is then exactly what a restart loads, and compact. An object built in code holds concatenated and
    // sliced strings (a slice keeps its whole source, a request body, alive) that cost about twice the memory of
    // the same record parsed from JSON; the soak benchmark showed the difference growing with every write.
    const op = JSON.stringify([collection, id, record]);
    tx.ops.push(op);
    const [, storedId, stored] = JSON.parse(op) as Op;
    this.apply(collection, storedId, stored, previous);
  }

  private txRandom(): Random {
    const tx = this.tx;
    if (!tx) throw new Error('random() only inside mutate()');
    // The generator of the sequence number this mutation will commit as.
    tx.random ??= new Random(seedState((this.meta().seed ^ this.salt) >>> 0, this.seq + 1));
    return tx.random;
  }
}
