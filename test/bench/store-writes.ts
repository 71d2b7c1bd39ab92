// The store's write path alone, in this process: BULK_ITEMS bulk items put one a transaction, then each updated
// twice (its status, as the bulk processor does), in memory or with a journal (each change as its journal text
// and parsed back, as a file store keeps it; nothing is written to disk). Prints one line of JSON: µs a put and µs
// an update.
//
// Run by the part `store` (parts/store.ts) as `node --import tsx store-writes.ts <checkout> <memory|journal>`: the
// checkout's own src/ is loaded, so that another commit's store can be measured by the same script.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [checkout = process.cwd(), mode = 'memory'] = process.argv.slice(2);
const BULK_ITEMS = Number(process.env.BENCH_STORE_ITEMS ?? '60000');

const from = (path: string) => import(pathToFileURL(join(checkout, path)).href);
const { ChangeLog, MemoryCollections } = await from('src/store/collections.ts');
const { baseState } = await from('test/support/store.ts');

type Put = (collection: string, record: object) => void;
interface Tx {
  get: (collection: string, id: string) => object | undefined;
  put: Put;
}

/** The collections with the write path the store's facade uses, opened to this script. */
class Collections extends MemoryCollections {
  constructor(journaled: boolean) {
    super(undefined, journaled);
    this.load(baseState());
  }

  change(fn: (tx: Tx) => void): void {
    this.transact(fn, new ChangeLog());
  }
}

const itemId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const item = (i: number) => ({
  id: itemId(i),
  bulkTransferId: `bt-${i >> 4}`,
  itemIndex: i & 15,
  amount: 100000,
  receiverAccountNumber: '0123456789',
  receiverBankCode: '058',
  receiverName: 'Ada Obi',
  narration: 'Typical test',
  transactionReference: `ref-${i}`,
  status: 'pending',
  failureReason: null,
  transactionId: null,
  createdAt: '2026-12-02T10:00:00.000Z',
  updatedAt: '2026-12-02T10:00:00.000Z',
});

const rows = new Collections(mode === 'journal');
const started = performance.now();
for (let i = 0; i < BULK_ITEMS; i++) rows.change((tx) => tx.put('bulkItems', item(i)));
const put = performance.now();
for (const status of ['processing', 'completed'])
  for (let i = 0; i < BULK_ITEMS; i++)
    rows.change((tx) => tx.put('bulkItems', { ...tx.get('bulkItems', itemId(i)), status }));
const updated = performance.now();
const putUs = ((put - started) / BULK_ITEMS) * 1000;
const updateUs = ((updated - put) / BULK_ITEMS / 2) * 1000;
process.stdout.write(`${JSON.stringify({ putUs, updateUs })}\n`);
