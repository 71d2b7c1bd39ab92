import { describe, expect, it } from 'vitest';
import { apiTail, originForm } from '../../src/upstream/target.js';

// What goes upstream as the path: the bytes the app sent after /api/v1, never decoded nor resolved; and nothing
// where those bytes, resolved by the upstream, could leave its base path.

describe('originForm', () => {
  it.each([
    ['/api/v1/x?y=1', '/api/v1/x?y=1'],
    ['http://sandbox:4010/api/v1/%2e%2e%5cadmin', '/api/v1/%2e%2e%5cadmin'],
    ['HTTPS://host/api/v1?x', '/api/v1?x'],
    ['http://host', '/'],
    ['http://host?x=1', '?x=1'],
  ])('%s → %s', (target, path) => {
    expect(originForm(target)).toBe(path);
  });
});

describe('apiTail', () => {
  it.each([
    ['/api/v1', ''],
    ['/api/v1/', '/'],
    ['/api/v1?x=1', '?x=1'],
    ['/api/v1/clients/business/audits/1?x=1&y=%20z', '/clients/business/audits/1?x=1&y=%20z'],
    // Encoded, never decoded: the upstream gets the bytes, one segment.
    ['/api/v1/%2e%2e%5c%2e%2e%5cadmin', '/%2e%2e%5c%2e%2e%5cadmin'],
    ['/api/v1/a%2F..%2F..%2Fadmin', '/a%2F..%2F..%2Fadmin'],
    // Dot segments that stay below /api/v1 go as they are: resolved upstream, they stay inside its base.
    ['/api/v1/a/../b', '/a/../b'],
    ['/api/v1/a/./b/..', '/a/./b/..'],
    ['/api/v1/a//../b', '/a//../b'],
    // A prefix written encoded is still /api/v1: what follows it is what goes.
    ['/%61pi/v1/x', '/x'],
    // Dot segments in the query are not the path's.
    ['/api/v1/x?next=/../../admin', '/x?next=/../../admin'],
  ])('%s → %s', (target, tail) => {
    expect(apiTail(target)).toBe(tail);
  });

  it.each([
    // Reached /api/v1 only once resolved.
    '/x/../api/v1/y',
    '/api/x/../v1/y',
    '/api/./v1/y',
    // Its own dot segments climb above /api/v1, written plain or encoded, in any case.
    '/api/v1/..',
    '/api/v1/../v1/x',
    '/api/v1/a/../../admin',
    '/api/v1/%2e%2e/admin',
    '/api/v1/%2E%2e/admin',
    '/api/v1/.%2e/admin',
    '/api/v1/%2e./admin',
    // Not /api/v1 at all.
    '/api/v2/x',
    '/api%2Fv1/x',
    'api/v1/x',
    '/api/v1%ZZ/x',
  ])('%s cannot go upstream as sent', (target) => {
    expect(apiTail(target)).toBeUndefined();
  });
});
