import { describe, expect, it } from 'vitest';
import { StringPool, settleRecord } from '../../src/store/string-pool.js';

describe('StringPool', () => {
  it('gives back an equal string and remembers the short ones', () => {
    const pool = new StringPool(8, 10);
    expect(pool.intern('pending')).toBe('pending');
    expect(pool.has('pending')).toBe(true);
    expect(pool.intern('a string longer than ten')).toBe('a string longer than ten');
    expect(pool.has('a string longer than ten')).toBe(false);
    expect(pool.size).toBe(1);
  });

  it('forgets a string seen once after two generations of other strings, and never holds more than twice its limit', () => {
    const pool = new StringPool(4);
    pool.intern('once');
    for (let i = 0; i < 7; i++) pool.intern(`id-${i}`);
    expect(pool.has('once')).toBe(true);
    pool.intern('id-7');
    pool.intern('id-8');
    expect(pool.has('once')).toBe(false);
    for (let i = 9; i < 1000; i++) pool.intern(`id-${i}`);
    expect(pool.size).toBeLessThanOrEqual(8);
  });

  it('keeps a string that comes back once a generation, however many others pass through', () => {
    const pool = new StringPool(4);
    for (let i = 0; i < 1000; i++) {
      pool.intern(`id-${i}`);
      if (i % 3 === 0) pool.intern('b1a10000-0000-4000-8000-000000000001');
      expect(pool.has('b1a10000-0000-4000-8000-000000000001')).toBe(true);
    }
  });
});

describe('settleRecord', () => {
  it('freezes a record all the way down and keeps every value', () => {
    const pool = new StringPool();
    const record = JSON.parse(
      '{"id":"d1","status":"pending","attempts":[{"status":200,"error":null}],"payload":{"bank":{"name":"GTBank"}}}',
    );
    const copy = structuredClone(record);
    expect(settleRecord(record, pool)).toBe(record);
    expect(record).toEqual(copy);
    expect(Object.isFrozen(record)).toBe(true);
    expect(Object.isFrozen(record.attempts)).toBe(true);
    expect(Object.isFrozen(record.attempts[0])).toBe(true);
    expect(Object.isFrozen(record.payload.bank)).toBe(true);
    expect(pool.has('GTBank')).toBe(true);
    expect(pool.has('pending')).toBe(true);
  });

  it("puts the pool's string in the record's place, however deep", () => {
    // A pool that answers a marked copy, so that what the record holds can be told from what it was given.
    const pool = new StringPool();
    pool.intern = (value: string) => `pooled:${value}`;
    const record = settleRecord(JSON.parse('{"status":"pending","payload":{"banks":["GTBank"]}}'), pool);
    expect(record).toEqual({ status: 'pooled:pending', payload: { banks: ['pooled:GTBank'] } });
  });

  it('takes the strings of the record it replaces where they are equal, asking the pool only for the others', () => {
    const pool = new StringPool();
    const replaced = settleRecord(
      JSON.parse('{"id":"d1","status":"pending","payload":{"banks":["GTBank","Zenith"]},"note":"x"}'),
      pool,
    );
    const asked: string[] = [];
    const intern = pool.intern.bind(pool);
    pool.intern = (value: string) => {
      asked.push(value);
      return intern(value);
    };
    // As a file store keeps it: parsed from its journal text, so no string is the replaced record's own.
    const record = settleRecord(
      JSON.parse('{"id":"d1","status":"paid","payload":{"banks":["GTBank","Access"]},"note":7}'),
      pool,
      replaced,
    );
    expect(asked).toEqual(['paid', 'Access']);
    expect(record).toEqual({ id: 'd1', status: 'paid', payload: { banks: ['GTBank', 'Access'] }, note: 7 });
    expect(Object.isFrozen(record.payload.banks)).toBe(true);
  });

  it('leaves a record settled before as it is', () => {
    const pool = new StringPool();
    const record = Object.freeze({ id: 'd1', status: 'pending' });
    expect(settleRecord(record, pool)).toBe(record);
    expect(pool.size).toBe(0);
  });
});
