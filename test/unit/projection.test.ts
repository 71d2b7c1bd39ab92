import { describe, expect, it } from 'vitest';
import { auditEntry, auditEntryFields } from '../../src/contract/api/audits.js';
import {
  accountDetails,
  accountFields,
  business,
  businessFields,
  customer,
  customerFields,
} from '../../src/contract/api/business.js';
import { dispute, disputeFields } from '../../src/contract/api/disputes.js';
import { payoutAccount, payoutAccountFields } from '../../src/contract/api/payouts.js';
import { project } from '../../src/domain/projection.js';

// A view that shows some of a record's fields is the record projected on the view's fields, and its schema is the
// record's schema picked with the same fields: the two cannot drift apart, and the wire keeps the fields' order.

describe('project', () => {
  const record = { id: 'p1', clientId: 'c1', accountName: 'Ada', bankCode: '058', createdAt: 'then' };

  it('gives the fields in the order they are named, not the order the record keeps them in', () => {
    const view = project(record, { bankCode: true, id: true, accountName: true });
    expect(JSON.stringify(view)).toBe('{"bankCode":"058","id":"p1","accountName":"Ada"}');
  });

  it("adds what it is given after the record's fields, in its order", () => {
    const view = project(record, { id: true, bankCode: true }, { accountName: 'Given', extra: 1 });
    expect(JSON.stringify(view)).toBe('{"id":"p1","bankCode":"058","accountName":"Given","extra":1}');
  });

  it('leaves out every field it is not given, and keeps the record as it was', () => {
    const before = structuredClone(record);
    expect(project(record, { id: true })).toEqual({ id: 'p1' });
    expect(record).toEqual(before);
  });

  it('keeps a field that holds null or a list as it is', () => {
    const view = project({ a: null, b: ['x'], c: 1 }, { b: true, a: true });
    expect(view).toEqual({ b: ['x'], a: null });
  });
});

describe('a view schema picked with its projection’s fields', () => {
  it.each([
    ['PayoutAccount', payoutAccount, payoutAccountFields],
    ['AuditEntry', auditEntry, auditEntryFields],
    ['Dispute', dispute, disputeFields],
    ['Customer', customer, customerFields],
    ['Business', business, businessFields],
    ['AccountDetails', accountDetails, accountFields],
  ] as const)('%s shows the projected fields first, in their order', (_, schema, fields) => {
    const keys = Object.keys(fields);
    expect(Object.keys(schema().shape).slice(0, keys.length)).toEqual(keys);
  });

  it('the business after the fields it keeps shows its state, then its client, as the spec orders them', () => {
    expect(Object.keys(business().shape).slice(Object.keys(businessFields).length)).toEqual([
      'state',
      'clientId',
    ]);
  });
});
