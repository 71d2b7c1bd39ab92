import type { z } from 'zod';
import { type CollectionName, stateDocument, storedRecordSchemas } from '../domain/records.js';
import { isMissing, type StoreFileSystem } from './file-system.js';
import type { JournalEntry } from './journal.js';
import type { Snapshot } from './snapshot-file.js';
import { StateFileError } from './write-error.js';

/** What start-up found on disk, checked whole; nothing has been changed yet. */
export interface StateFiles {
  /** The snapshot, or null when there is none (a first start). */
  snapshot: Snapshot | null;
  /** The journal's whole entries, in order. */
  entries: JournalEntry[];
  /** Where the journal's whole entries end, when a torn last line follows them (to be cut); else null. */
  tornAt: number | null;
  /** The journal's bytes up to the end of its last whole entry (blank lines included), as the file holds them. */
  journal: Buffer;
}

/** The temporary files a write in progress leaves beside the state, removed at start. */
export function temporaryFiles(file: string): string[] {
  return [`${file}.tmp`, `${file}.wal.tmp`];
}

async function readOrNull(fs: StoreFileSystem, path: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw new StateFileError(`${path}: cannot be read: ${(error as Error).message}`);
  }
}

/** `businesses[3] (id b1).balance: expected number, received string`: where a record fails, in words. */
function describeIssue(issue: z.core.$ZodIssue, records: unknown): string {
  const [, collection, index, ...field] = issue.path;
  if (typeof collection === 'string' && typeof index === 'number') {
    const list = (records as Record<string, unknown[]>)[collection];
    const id = (list?.[index] as { id?: unknown } | undefined)?.id;
    const idText = typeof id === 'string' ? ` (id ${id})` : '';
    const fieldText = field.length > 0 ? `.${field.join('.')}` : '';
    return `record ${collection}[${index}]${idText}${fieldText}: ${issue.message}`;
  }
  return `${issue.path.join('.') || 'the document'}: ${issue.message}`;
}

/** The size of a snapshot from which checking it with zod's JIT pays for compiling it. */
const JIT_FROM_BYTES = 1_048_576;

function checkSnapshot(file: string, text: string): Snapshot {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(`${file}: is not valid JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new StateFileError(
      `${file}: is not a sandbox state (expected a JSON object, found ${JSON.stringify(value)})`,
    );
  }
  const doc = value as { version?: unknown; seq?: unknown; collections?: unknown };
  if (doc.version !== 1) {
    throw new StateFileError(
      `${file}: is not a sandbox state of version 1 (version ${JSON.stringify(doc.version)})`,
    );
  }
  if (!Number.isSafeInteger(doc.seq) || (doc.seq as number) < 0) {
    throw new StateFileError(
      `${file}: its "seq" must be a whole number ≥ 0 (found ${JSON.stringify(doc.seq)})`,
    );
  }
  // A small state (a restart of a test machine's) is checked without compiling each schema's fast path first (zod's
  // JIT), which costs more than checking a few thousand records; a large one takes it, and is checked faster.
  const parsed = stateDocument.safeParse(
    { version: doc.version, collections: doc.collections },
    { jitless: text.length < JIT_FROM_BYTES },
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? describeIssue(issue, doc.collections) : 'is not a sandbox state';
    throw new StateFileError(`${file}: ${where}`);
  }
  const metas = parsed.data.collections.meta.length;
  if (metas !== 1) {
    throw new StateFileError(
      `${file}: must hold exactly one meta record (seed and token key), found ${metas}`,
    );
  }
  // The document as read, not as zod rebuilt it: the store keeps exactly what the file holds.
  return value as Snapshot;
}

function checkEntry(wal: string, lineNo: number, line: string): JournalEntry {
  const where = `${wal}: line ${lineNo}`;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new StateFileError(`${where} is not valid JSON; the journal is corrupt`);
  }
  const entry = value as { q?: unknown; o?: unknown };
  if (
    value === null ||
    typeof value !== 'object' ||
    !Number.isSafeInteger(entry.q) ||
    !Array.isArray(entry.o)
  ) {
    throw new StateFileError(`${where} is not a journal entry ({"q": sequence, "o": [changes]})`);
  }
  entry.o.forEach((op: unknown, i: number) => {
    if (!Array.isArray(op) || op.length !== 3 || typeof op[0] !== 'string' || typeof op[1] !== 'string') {
      throw new StateFileError(`${where}, change ${i}: is not [collection, id, record]`);
    }
    const [collection, id, record] = op as [string, string, unknown];
    if (!Object.hasOwn(storedRecordSchemas, collection)) {
      throw new StateFileError(`${where}, change ${i}: names an unknown collection "${collection}"`);
    }
    if (record === null) return;
    const parsed = storedRecordSchemas[collection as CollectionName].safeParse(record);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue && issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
      throw new StateFileError(
        `${where}, change ${i}: record ${collection} ${id}${field}: ${issue?.message ?? 'does not fit its schema'}`,
      );
    }
    if ((record as { id?: unknown }).id !== id) {
      throw new StateFileError(`${where}, change ${i}: record ${collection} ${id} carries another id`);
    }
  });
  return value as JournalEntry;
}

/**
 * Reads and checks the snapshot and its journal without changing either: a snapshot that is not a sandbox state,
 * a journal without its snapshot, a journal line that is not a whole entry of the right shape, each stop the start
 * with a `StateFileError` naming the file, the line or record, and what is wrong. A last line without its newline
 * was torn by a crash during a write that was never acknowledged: it is reported in `tornAt`, for the caller to
 * cut once everything else has been read.
 */
export async function readStateFiles(fs: StoreFileSystem, file: string): Promise<StateFiles> {
  const wal = `${file}.wal`;
  const snapshotBytes = await readOrNull(fs, file);
  const snapshot = snapshotBytes === null ? null : checkSnapshot(file, snapshotBytes.toString('utf8'));
  const journalBytes = (await readOrNull(fs, wal)) ?? Buffer.alloc(0);
  const end = journalBytes.lastIndexOf(0x0a) + 1;
  const whole = journalBytes.subarray(0, end).toString('utf8');
  const entries: JournalEntry[] = [];
  let lineNo = 0;
  for (const line of whole.split('\n')) {
    lineNo++;
    // Blank lines are a probe's leftovers (see Journal.probe): not entries.
    if (line.trim() === '') continue;
    entries.push(checkEntry(wal, lineNo, line));
  }
  if (snapshot === null && (entries.length > 0 || end < journalBytes.length)) {
    throw new StateFileError(
      `${wal}: holds changes but its snapshot ${file} is missing; restore the snapshot, or move the journal away to start afresh`,
    );
  }
  return {
    snapshot,
    entries,
    tornAt: end < journalBytes.length ? end : null,
    journal: journalBytes.subarray(0, end),
  };
}
