import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';
import type { StateDocument } from '../domain/records.js';
import { isMissing, replaceFile, type StoreFileSystem } from './file-system.js';
import { TextWriter } from './text-writer.js';
import { asWriteError } from './write-error.js';

/** The snapshot on disk: the state document and the last journal sequence number it contains. */
export type Snapshot = StateDocument & { seq: number };

/**
 * A lowdb adapter for the snapshot file. Unlike lowdb's `JSONFile`, which stringifies the whole state in one
 * synchronous call (154 ms at 100 000 records, every request waiting), it serialises one record at a time into a
 * buffer of a quarter MB and lets the event loop run while each buffer-full is written, so a compaction never
 * stalls the API and never holds more than a record's text at once. The write is atomic
 * (temporary file, fsync, rename, fsync of the folder): a crash leaves the old snapshot or the new one, and a
 * failed write removes its temporary file and leaves the old snapshot as it was.
 * Records must not be mutated in place while a write is in progress; the store freezes them to make sure.
 */
export class SnapshotFile implements Adapter<Snapshot> {
  constructor(
    private readonly fs: StoreFileSystem,
    private readonly path: string,
    /** Runs last before the new snapshot is renamed into place, and may refuse it (the state lock's check). */
    private readonly beforeRename: () => Promise<void> = async () => {},
  ) {}

  /** The file as parsed, unchecked (start-up reads it through `readStateFiles`, which checks it). */
  async read(): Promise<Snapshot | null> {
    try {
      return JSON.parse((await this.fs.readFile(this.path)).toString('utf8')) as Snapshot;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async write(data: Snapshot): Promise<void> {
    try {
      await replaceFile(
        this.fs,
        this.path,
        async (fh) => {
          // Record by record through one reused buffer; each write of it lets the event loop run (see TextWriter).
          const out = new TextWriter(fh);
          await out.add(`{"version":${JSON.stringify(data.version)},"seq":${data.seq},"collections":{`);
          let firstCollection = true;
          for (const [name, records] of Object.entries(data.collections)) {
            await out.add(`${firstCollection ? '' : ','}${JSON.stringify(name)}:[`);
            firstCollection = false;
            for (let i = 0; i < records.length; i++) {
              await out.add((i === 0 ? '' : ',') + JSON.stringify(records[i]));
            }
            await out.add(']');
          }
          await out.add('}}\n');
          await out.flush();
        },
        this.beforeRename,
      );
    } catch (error) {
      throw asWriteError(error);
    }
    // The new snapshot is in place and every process sees it from now on, so the write has happened: failing it
    // now would undo in memory what a restart loads. Only a power cut could lose a rename whose folder was not
    // fsynced, and then the old snapshot and the journal it came with are still whole.
    await this.fs.syncDir(dirname(this.path)).catch(() => undefined);
  }
}
