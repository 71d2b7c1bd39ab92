import { describe, expect, it } from 'vitest';
import { isSecretHeader, redactHeader } from '../../src/domain/redact.js';
import { WEBHOOK_USER_AGENT, webhookHeaders } from '../../src/domain/webhook-agent.js';

describe('webhookHeaders', () => {
  it('JSON, the client’s AUTH-KEY and the sandbox’s User-Agent', () => {
    expect(webhookHeaders({ webhookAuthKey: 'whk_0123456789abcdef' })).toEqual({
      'content-type': 'application/json',
      'AUTH-KEY': 'whk_0123456789abcdef',
      'user-agent': WEBHOOK_USER_AGENT,
    });
  });

  it('no client, no key: no AUTH-KEY', () => {
    expect(webhookHeaders(undefined)).toEqual({
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
    });
  });
});

describe('AUTH-KEY is a credential header', () => {
  it.each(['AUTH-KEY', 'auth-key', 'x-auth-key'])('%s is redacted to its last 4 characters', (name) => {
    expect(isSecretHeader(name)).toBe(true);
    expect(redactHeader(name, 'whk_0123456789abcdef')).toBe('****cdef');
  });
});
