import { setImmediate as nextTurn } from 'node:timers/promises';
import type { StateDocument } from '../../domain/records.js';

/** Characters of JSON gathered before they go out as one chunk: a few hundred records at a time. */
const CHUNK_CHARS = 256 * 1024;

/**
 * The state as the JSON text of `GET /__sandbox/state`, a chunk at a time as the client reads it: one record's text
 * is made at a time, and nothing the size of the whole document ever is. A state of 100 000 records is some 50 MB
 * of JSON: built in one `JSON.stringify`, it held the event loop for the time it took and a copy of itself in
 * memory for each export in flight (five at once took the process past 1 GB). Records are frozen once stored and
 * `doc` holds this moment's arrays of them, so the document sent is the state at the moment it was asked for,
 * whatever changes meanwhile.
 *
 * Each chunk after the first waits for a turn of the event loop before it is made. A reader that asks for the next
 * chunk as soon as it has one (a socket that takes every write at once, a client on loopback that reads as fast as
 * the sandbox writes) would otherwise have every pull run in one go, each on the promise of the one before: the
 * whole export, 1.7 s for 104 MB, with no connection accepted and no request read meanwhile.
 */
export function stateStream(doc: StateDocument): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pieces = documentPieces(doc);
  let first = true;
  return new ReadableStream<Uint8Array>({
    // Each pull makes one chunk, when the client is ready for it: other requests are served between pulls.
    async pull(controller) {
      if (!first) await nextTurn();
      first = false;
      let text = '';
      for (let next = pieces.next(); ; next = pieces.next()) {
        if (next.done) {
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += next.value;
        if (text.length >= CHUNK_CHARS) {
          controller.enqueue(encoder.encode(text));
          return;
        }
      }
    },
  });
}

/** The document's JSON text, in pieces: its frame, then one record at a time. */
function* documentPieces(doc: StateDocument): Generator<string> {
  yield `{"version":${JSON.stringify(doc.version)},"collections":{`;
  let first = true;
  for (const [name, records] of Object.entries(doc.collections)) {
    yield `${first ? '' : ','}${JSON.stringify(name)}:[`;
    first = false;
    for (let i = 0; i < records.length; i++) yield (i === 0 ? '' : ',') + JSON.stringify(records[i]);
    yield ']';
  }
  yield '}}';
}
