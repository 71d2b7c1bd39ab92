import { describe, expect, it } from 'vitest';
import { newAccountNumber } from '../../src/bank/accounts/accounts.js';
import { makeNuban } from '../../src/domain/nuban.js';
import type { Random } from '../../src/domain/random.js';
import type { BusinessRecord, StateDocument, UserRecord } from '../../src/domain/records.js';
import { ChangeLog, MemoryCollections, type StoreChange, type Tx } from '../../src/store/collections.js';
import type { JournalEntry } from '../../src/store/journal.js';
import { baseState, customer } from '../support/store.js';

/** The collections alone, with the write path the store's facade uses (protected there) opened to the test. */
class Bare extends MemoryCollections {
  constructor(doc: StateDocument = baseState()) {
    super();
    this.load(doc);
  }

  /** Runs `fn` as one transaction; answers its change log. */
  change(fn: (tx: Tx) => void): ChangeLog {
    const log = new ChangeLog();
    this.transact(fn, log);
    return log;
  }

  replaceWith(doc: StateDocument): () => void {
    return this.replace(doc);
  }

  replayEntry(entry: JournalEntry): void {
    this.replay(entry);
  }

  tell(changes: readonly StoreChange[] | 'replaced'): void {
    this.emit(changes);
  }

  get sequence(): number {
    return this.seq;
  }
}

/** A user: two indexed fields (email, clientId). */
function user(id: string, clientId: string, email = `${id}@example.test`): UserRecord {
  return {
    id,
    clientId,
    email,
    password: '',
    firstName: 'Ada',
    lastName: 'Obi',
    phoneNo: '',
    roleId: 'r1',
    isOwner: false,
    isActive: true,
    createdAt: '',
  };
}

/**
 * Every index of users, as ids per value: what `where` answers for each value given, sorted (an undo puts an id
 * back in its index's set, not in its old place there).
 */
function usersBy(rows: Bare, values: { clientId: string[]; email: string[] }) {
  const ids = (field: 'clientId' | 'email', value: string) => {
    const found = rows.where('users', field, value).map((u) => u.id);
    // `where` skips an id whose record is gone; the count does not, so a stale entry shows here.
    expect(rows.countWhere('users', field, value)).toBe(found.length);
    return found.sort();
  };
  return {
    clientId: Object.fromEntries(values.clientId.map((v) => [v, ids('clientId', v)])),
    email: Object.fromEntries(values.email.map((v) => [v, ids('email', v)])),
  };
}

const VALUES = { clientId: ['k1', 'k2'], email: ['a@x', 'b@x', 'c@x'] };

describe('MemoryCollections: a transaction', () => {
  it('keeps every index true through put, update and delete, and its undo puts each back, newest first', () => {
    const rows = new Bare();
    rows.change((tx) => {
      tx.put('users', user('u1', 'k1', 'a@x'));
      tx.put('users', user('u2', 'k1', 'b@x'));
    });
    const before = usersBy(rows, VALUES);
    expect(before).toEqual({
      clientId: { k1: ['u1', 'u2'], k2: [] },
      email: { 'a@x': ['u1'], 'b@x': ['u2'], 'c@x': [] },
    });

    // The same record changed twice and another deleted, in one transaction.
    const log = rows.change((tx) => {
      tx.put('users', user('u1', 'k2', 'c@x'));
      tx.put('users', user('u1', 'k2', 'a@x'));
      tx.delete('users', 'u2');
      tx.put('users', user('u3', 'k2', 'b@x'));
    });
    expect(usersBy(rows, VALUES)).toEqual({
      clientId: { k1: [], k2: ['u1', 'u3'] },
      email: { 'a@x': ['u1'], 'b@x': ['u3'], 'c@x': [] },
    });

    log.undo();
    expect(usersBy(rows, VALUES)).toEqual(before);
    expect(rows.all('users')).toEqual([user('u1', 'k1', 'a@x'), user('u2', 'k1', 'b@x')]);
    expect(rows.get('users', 'u3')).toBeUndefined();
  });

  it('logs each change as its journal text and as its listeners hear it', () => {
    const rows = new Bare();
    rows.change((tx) => tx.put('customers', customer('c1')));
    const log = rows.change((tx) => {
      tx.put('customers', { ...customer('c1'), name: 'Renamed' });
      tx.put('customers', customer('c2'));
      tx.delete('customers', 'c1');
    });
    expect(log.ops.map((op) => JSON.parse(op))).toEqual([
      ['customers', 'c1', { ...customer('c1'), name: 'Renamed' }],
      ['customers', 'c2', customer('c2')],
      ['customers', 'c1', null],
    ]);
    expect(log.changes).toEqual([
      { collection: 'customers', id: 'c1', created: false },
      { collection: 'customers', id: 'c2', created: true },
      { collection: 'customers', id: 'c1', created: false },
    ]);
  });

  it('keeps a record as its journal text parsed back, frozen: not the object the caller built', () => {
    const rows = new Bare();
    const built = customer('c1');
    rows.change((tx) => tx.put('customers', built));
    const kept = rows.get('customers', 'c1');
    expect(kept).toEqual(built);
    expect(kept).not.toBe(built);
    expect(Object.isFrozen(kept)).toBe(true);
    expect(Object.isFrozen(built)).toBe(false);
  });

  it('undoes what a transaction that throws did, and allows no change outside one or one inside another', () => {
    const rows = new Bare();
    rows.change((tx) => tx.put('customers', customer('kept', 'b1')));
    expect(() =>
      rows.change((tx) => {
        tx.put('customers', customer('kept', 'b2'));
        tx.put('customers', customer('lost', 'b1'));
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(rows.where('customers', 'businessId', 'b1').map((c) => c.id)).toEqual(['kept']);
    expect(rows.where('customers', 'businessId', 'b2')).toEqual([]);

    let escaped: Tx | null = null;
    rows.change((tx) => {
      escaped = tx;
    });
    expect(() => escaped?.put('customers', customer('late'))).toThrow(/only change inside mutate/);
    expect(() => rows.change(() => rows.change(() => undefined))).toThrow(/nested/);
  });
});

/** A business of client k1, with a payment account numbered `accountNumber` (null: not approved yet). */
function business(id: string, accountNumber: string | null): BusinessRecord {
  return {
    id,
    clientId: 'k1',
    businessName: `Business ${id}`,
    bvn: '',
    photoIdUrl: '',
    businessDocumentsUrls: [],
    isApproved: accountNumber !== null,
    residentialAddress: '',
    stateId: '',
    countryId: '',
    isNewBusiness: false,
    createdAt: '',
    account: accountNumber === null ? null : { accountNumber, accountType: 'current', customerId: '1' },
    openingBalance: 0,
    balance: 0,
  };
}

describe('MemoryCollections: an indexed value inside a record', () => {
  const byAccount = (rows: Bare, n: string) => rows.where('businesses', 'accountNumber', n).map((b) => b.id);

  it("finds a business by its account's number through approval, a new number, delete, undo and a load", () => {
    const rows = new Bare();
    rows.change((tx) => tx.put('businesses', business('b1', null)));
    // Not approved: no number, and no entry under `undefined` either.
    expect(rows.where('businesses', 'accountNumber', undefined)).toEqual([]);
    rows.change((tx) => tx.put('businesses', business('b1', '0000000011')));
    expect(byAccount(rows, '0000000011')).toEqual(['b1']);
    const log = rows.change((tx) => {
      tx.put('businesses', business('b1', '0000000022'));
      tx.put('businesses', business('b2', '0000000011'));
    });
    expect(byAccount(rows, '0000000022')).toEqual(['b1']);
    expect(byAccount(rows, '0000000011')).toEqual(['b2']);
    log.undo();
    expect(byAccount(rows, '0000000011')).toEqual(['b1']);
    expect(byAccount(rows, '0000000022')).toEqual([]);
    rows.change((tx) => tx.delete('businesses', 'b1'));
    expect(rows.countWhere('businesses', 'accountNumber', '0000000011')).toBe(0);
    const doc = baseState();
    doc.collections.businesses = [business('b3', '0000000033'), business('b4', null)];
    rows.replaceWith(doc);
    expect(byAccount(rows, '0000000033')).toEqual(['b3']);
    expect(rows.where('businesses', 'accountNumber', undefined)).toEqual([]);
  });

  it('a new account number passes over one a business holds, found through the index', () => {
    const rows = new Bare();
    const held = makeNuban('000', '000000001');
    rows.change((tx) => tx.put('businesses', business('b1', held)));
    // The draws: the business's number, then a free one.
    const draws = ['000000001', '000000002'];
    const random = { digits: () => draws.shift() ?? '' } as unknown as Random;
    const fixtures = { banks: { homeBankCode: '000' } } as Parameters<typeof newAccountNumber>[1]['fixtures'];
    let drawn = '';
    rows.change((tx) => {
      drawn = newAccountNumber({ ...tx, random: () => random }, { fixtures });
    });
    expect(drawn).toBe(makeNuban('000', '000000002'));
    expect(draws).toEqual([]);
  });
});

describe('MemoryCollections: a whole state', () => {
  it('replace swaps the whole state in and answers the undo that swaps the old one back, indexes and all', () => {
    const rows = new Bare();
    rows.change((tx) => tx.put('customers', customer('old', 'b1')));
    const doc = baseState();
    doc.collections.customers = [customer('new', 'b2')];
    const undo = rows.replaceWith(doc);
    expect(rows.all('customers').map((c) => c.id)).toEqual(['new']);
    expect(rows.where('customers', 'businessId', 'b2').map((c) => c.id)).toEqual(['new']);
    undo();
    expect(rows.all('customers').map((c) => c.id)).toEqual(['old']);
    expect(rows.where('customers', 'businessId', 'b1').map((c) => c.id)).toEqual(['old']);
    expect(rows.where('customers', 'businessId', 'b2')).toEqual([]);
  });

  it('a document that fails half way through loading changes nothing', () => {
    const rows = new Bare();
    rows.change((tx) => tx.put('customers', customer('old')));
    const doc = baseState();
    (doc.collections.customers as unknown[]) = [customer('new'), null];
    expect(() => rows.replaceWith(doc)).toThrow(TypeError);
    expect(rows.all('customers').map((c) => c.id)).toEqual(['old']);
    expect(rows.where('customers', 'businessId', 'b1').map((c) => c.id)).toEqual(['old']);
  });

  it('replays only the journal entries it does not hold yet, and takes their sequence number', () => {
    const rows = new Bare();
    const put = (q: number, id: string): JournalEntry => ({ q, o: [['customers', id, customer(id)]] });
    rows.replayEntry(put(1, 'c1'));
    rows.replayEntry(put(2, 'c2'));
    rows.replayEntry(put(2, 'again'));
    rows.replayEntry({ q: 3, o: [['customers', 'c1', null]] });
    expect(rows.all('customers').map((c) => c.id)).toEqual(['c2']);
    expect(rows.sequence).toBe(3);
  });

  it('tells every listener, even past one that throws, until it unsubscribes', () => {
    const rows = new Bare();
    const heard: (readonly StoreChange[] | 'replaced')[] = [];
    rows.subscribe(() => {
      throw new Error('not ours');
    });
    const off = rows.subscribe((changes) => heard.push(changes));
    rows.tell('replaced');
    off();
    rows.tell([]);
    expect(heard).toEqual(['replaced']);
  });
});
