import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low, Memory } from 'lowdb';
import { Random, seedState } from '../domain/random.js';
import { Journal, type JournalEntry, type Op, readJournal } from './journal.js';
import {
  type CollectionName,
  type Collections,
  collectionNames,
  indexedFields,
  type MetaRecord,
  type StateDocument,
} from './records.js';
import { type Snapshot, SnapshotFile } from './snapshot-file.js';

export interface StoreOptions {
  /** Snapshot file; its journal is the same path with `.wal` appended. Null keeps everything in memory. */
  file: string | null;
  /** Journal size in bytes past which the snapshot is rewritten (in the background) and the journal emptied. */
  compactAfterBytes: number;
  /** The state to start from when there is no file yet. */
  initialState: () => Promise<StateDocument>;
  /** Told about a failed background compaction (the journal keeps everything, so nothing is lost). */
  onCompactionError?: (error: unknown) => void;
}

/** What a mutation may do: read anything, put and delete records, draw from the seeded generator. */
export interface Tx {
  get<K extends CollectionName>(collection: K, id: string): Collections[K] | undefined;
  where<K extends CollectionName>(
    collection: K,
    field: keyof Collections[K] & string,
    value: unknown,
  ): Collections[K][];
  /** How many records `where` would answer, without gathering them. */
  countWhere<K extends CollectionName>(
    collection: K,
    field: keyof Collections[K] & string,
    value: unknown,
  ): number;
  /** The records `where` would answer, one at a time: the caller may stop early, or delete the current one. */
  eachWhere<K extends CollectionName>(
    collection: K,
    field: keyof Collections[K] & string,
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
}
/** Told of every committed mutation's changes, or `replaced` when the whole state was (reset, import). */
export type StoreListener = (changes: readonly StoreChange[] | 'replaced') => void;

type Maps = { [K in CollectionName]: Map<string, Collections[K]> };
type Index = Map<unknown, Set<string>>;

interface OpenTx {
  /** Each change as its journal text. */
  ops: string[];
  changes: StoreChange[];
  undo: (() => void)[];
  random: Random | null;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The state: in memory, one Map per collection, with a write-ahead journal on disk. A mutation runs
 * synchronously (so each read-check-write is atomic on Node's one thread), appends its changes to the journal
 * and resolves once they are fsynced; concurrent mutations share one write. The snapshot (a lowdb document) is
 * rewritten only on reset, import, and in the background when the journal grows past a threshold. Start-up loads
 * the snapshot and replays the journal entries it does not contain yet.
 */
export class Store {
  private maps = {} as Maps;
  private indexes = new Map<string, Map<string, Index>>();
  private seq = 0;
  private tx: OpenTx | null = null;
  private journal: Journal | null = null;
  private compaction: Promise<void> | null = null;
  /** Snapshot writes, one after another: each captures the state when asked, and they share a temporary file. */
  private snapshotWrites: Promise<void> = Promise.resolve();
  private readonly txApi: Tx;
  private readonly listeners = new Set<StoreListener>();

  private constructor(
    private readonly options: StoreOptions,
    private readonly low: Low<Snapshot>,
  ) {
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

  /** Opens (or creates from `initialState`) the store. */
  static async open(options: StoreOptions): Promise<Store> {
    const empty: Snapshot = { version: 1, seq: 0, collections: {} as Snapshot['collections'] };
    if (options.file === null) {
      const store = new Store(options, new Low<Snapshot>(new Memory<Snapshot>(), empty));
      store.load(await options.initialState());
      return store;
    }
    await mkdir(dirname(options.file), { recursive: true });
    const store = new Store(options, new Low<Snapshot>(new SnapshotFile(options.file), empty));
    const walPath = `${options.file}.wal`;
    await store.low.read();
    const snapshot = store.low.data;
    if (snapshot === empty) {
      store.load(await options.initialState());
      store.journal = await Journal.open(walPath);
      // A journal left beside a deleted snapshot belongs to another state.
      await store.journal.clear();
      await store.writeSnapshot();
      return store;
    }
    if (snapshot.version !== 1 || typeof snapshot.collections !== 'object' || snapshot.collections === null) {
      throw new Error(`${options.file} is not a sandbox state file (version 1)`);
    }
    store.load(snapshot);
    store.seq = snapshot.seq;
    for (const entry of await readJournal(walPath)) store.replay(entry);
    store.journal = await Journal.open(walPath);
    return store;
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
  where<K extends CollectionName>(
    collection: K,
    field: keyof Collections[K] & string,
    value: unknown,
  ): Collections[K][] {
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
  countWhere<K extends CollectionName>(
    collection: K,
    field: keyof Collections[K] & string,
    value: unknown,
  ): number {
    return this.idsWhere(collection, field, value)?.size ?? 0;
  }

  /** The records `where` would answer, lazily, in insertion order. */
  *eachWhere<K extends CollectionName>(
    collection: K,
    field: keyof Collections[K] & string,
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
    return index.get(value);
  }

  /** The meta record (seed, generator state, token key). */
  meta(): MetaRecord {
    const meta = this.maps.meta.get('meta');
    if (!meta) throw new Error('state has no meta record');
    return meta;
  }

  /**
   * Runs `fn` atomically: it must be synchronous. If it throws, every change it made is undone and the error
   * is rethrown. Otherwise resolves with its result once the changes are durable.
   */
  mutate<T>(fn: (tx: Tx) => T): Promise<T> {
    if (this.tx) throw new Error('mutate() cannot be nested');
    const tx: OpenTx = { ops: [], changes: [], undo: [], random: null };
    this.tx = tx;
    let result: T;
    try {
      result = fn(this.txApi);
    } catch (error) {
      for (let i = tx.undo.length - 1; i >= 0; i--) tx.undo[i]?.();
      throw error;
    } finally {
      this.tx = null;
    }
    if (tx.ops.length === 0) return Promise.resolve(result);
    this.seq++;
    if (!this.journal) {
      this.emit(tx.changes);
      return Promise.resolve(result);
    }
    const line = `{"q":${this.seq},"o":[${tx.ops.join(',')}]}\n`;
    const durable = this.journal.append(line);
    this.emit(tx.changes);
    if (this.journal.size > this.options.compactAfterBytes && !this.compaction) this.startCompaction();
    return durable.then(() => result);
  }

  /**
   * Calls `listener` after each committed mutation (synchronously, once its journal line is queued, before it is
   * durable) and after a reset or import. Answers the unsubscribe function. A listener must be quick, and must
   * not mutate.
   */
  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the listeners, after the change is in the journal's queue; a listener that throws is not our failure. */
  private emit(changes: readonly StoreChange[] | 'replaced'): void {
    for (const listener of this.listeners) {
      try {
        listener(changes);
      } catch {
        // A listener's own failure must not turn a committed change into an error for the caller.
      }
    }
  }

  /** The whole state as a document (records are shared, frozen). */
  exportState(): StateDocument {
    const collections = {} as Record<CollectionName, unknown[]>;
    for (const name of collectionNames) collections[name] = this.all(name);
    return { version: 1, collections } as StateDocument;
  }

  /** Replaces the whole state (reset, import) and makes it durable. */
  async replaceState(doc: StateDocument): Promise<void> {
    if (this.tx) throw new Error('replaceState() inside mutate()');
    this.load(doc);
    this.seq++;
    this.emit('replaced');
    await this.writeSnapshot();
  }

  /** Resolves once every acknowledged change is on disk and no compaction runs. */
  async idle(): Promise<void> {
    while (this.compaction) await this.compaction;
    await this.journal?.idle();
  }

  /** Flushes and closes the files. */
  async close(): Promise<void> {
    await this.idle();
    await this.journal?.close();
    this.journal = null;
  }

  /** Journal figures: bytes in the file now, and fsynced writes since start (0 in memory). */
  stats(): { journalBytes: number; journalFlushes: number; seq: number } {
    return {
      journalBytes: this.journal?.size ?? 0,
      journalFlushes: this.journal?.flushes ?? 0,
      seq: this.seq,
    };
  }

  /**
   * Replaces the whole state with `doc`. The new maps and indexes are built aside and swapped in only when
   * complete, so a document that fails half way (it should not: imports are validated first) changes nothing.
   */
  private load(doc: Pick<StateDocument, 'collections'>): void {
    const previous = { maps: this.maps, indexes: new Map(this.indexes) };
    this.maps = {} as Maps;
    this.indexes.clear();
    try {
      for (const name of collectionNames) {
        (this.maps as Record<string, Map<string, unknown>>)[name] = new Map();
        const fields = (indexedFields as Record<string, readonly string[] | undefined>)[name] ?? [];
        this.indexes.set(name, new Map(fields.map((f) => [f, new Map()])));
        for (const record of doc.collections[name] ?? [])
          this.apply(name, (record as { id: string }).id, record);
      }
    } catch (error) {
      this.maps = previous.maps;
      this.indexes.clear();
      for (const [name, index] of previous.indexes) this.indexes.set(name, index);
      throw error;
    }
  }

  private replay(entry: JournalEntry): void {
    if (entry.q <= this.seq) return;
    for (const [collection, id, record] of entry.o) {
      if (!(collectionNames as string[]).includes(collection)) {
        throw new Error(`journal entry ${entry.q} names an unknown collection "${collection}"`);
      }
      this.apply(collection as CollectionName, id, record);
    }
    this.seq = entry.q;
  }

  /** Sets (or with `record` null deletes) one record and keeps the indexes true. */
  private apply(collection: CollectionName, id: string, record: unknown): void {
    const map = this.maps[collection] as Map<string, unknown>;
    const previous = map.get(id) as Record<string, unknown> | undefined;
    const indexes = this.indexes.get(collection);
    if (indexes && indexes.size > 0) {
      const next = record as Record<string, unknown> | null;
      for (const [field, index] of indexes) {
        if (previous && previous[field] !== next?.[field]) index.get(previous[field])?.delete(id);
        if (next) {
          const ids = index.get(next[field]);
          if (ids) ids.add(id);
          else index.set(next[field], new Set([id]));
        }
      }
    }
    if (record === null) map.delete(id);
    else map.set(id, deepFreeze(record));
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
    tx.undo.push(() => this.apply(collection, id, previous));
    // The record is kept as its journal text parsed back, not as the object the caller built: the state in
    // memory is then exactly what a restart loads, and compact. An object built in code holds concatenated and
    // sliced strings (a slice keeps its whole source, a request body, alive) that cost about twice the memory of
    // the same record parsed from JSON; the soak benchmark showed the difference growing with every write.
    const op = JSON.stringify([collection, id, record]);
    tx.ops.push(op);
    tx.changes.push({ collection, id });
    const [, storedId, stored] = JSON.parse(op) as Op;
    this.apply(collection, storedId, stored);
  }

  private txRandom(): Random {
    const tx = this.tx;
    if (!tx) throw new Error('random() only inside mutate()');
    // The generator of the sequence number this mutation will commit as.
    tx.random ??= new Random(seedState(this.meta().seed, this.seq + 1));
    return tx.random;
  }

  /**
   * Writes the state to the snapshot, then drops the journal entries it holds. Writes run one after another, and
   * each captures the state when its turn comes. Everything in the journal file at that moment is in the
   * snapshot, so only what was written after it is read back and kept.
   */
  private writeSnapshot(): Promise<void> {
    const write = async (): Promise<void> => {
      const snapshot: Snapshot = { ...this.exportState(), seq: this.seq };
      const journal = this.journal;
      const coveredBytes = journal?.size ?? 0;
      this.low.data = snapshot;
      await this.low.write();
      if (journal) await journal.exclusive(() => journal.dropThrough(snapshot.seq, coveredBytes));
    };
    const done = this.snapshotWrites.then(write);
    this.snapshotWrites = done.catch(() => undefined);
    return done;
  }

  private startCompaction(): void {
    this.compaction = this.writeSnapshot()
      .catch((error: unknown) => this.options.onCompactionError?.(error))
      .finally(() => {
        this.compaction = null;
      });
  }
}
