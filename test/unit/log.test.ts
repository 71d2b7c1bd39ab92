import { describe, expect, it } from 'vitest';
import { redactWebhookUrl, scrubWebhookError } from '../../src/domain/redact.js';
import { createLog, formatEvent, type LogEvent } from '../../src/log.js';
import { writeHealth } from '../../src/log-events.js';

describe('redactWebhookUrl', () => {
  it.for([
    ['http://127.0.0.1:3000/hooks/bank', 'http://127.0.0.1:3000/hooks/bank'],
    ['http://user:pass@127.0.0.1:3000/hooks', 'http://***@127.0.0.1:3000/hooks'],
    ['https://only-user@example.test/h', 'https://***@example.test/h'],
    ['https://:pass@example.test/h', 'https://***@example.test/h'],
    ['https://example.test/h?token=abc&sig=x%20y&flag', 'https://example.test/h?token=***&sig=***&flag=***'],
    ['https://example.test/h#fragment-secret', 'https://example.test/h'],
    ['not a url with a secret', '***'],
  ] as const)('%s → %s', ([url, shown]) => {
    expect(redactWebhookUrl(url)).toBe(shown);
  });
});

describe('scrubWebhookError', () => {
  it('hides the URL’s userinfo and query values, raw and decoded, and keeps the text on one line', () => {
    const url = 'http://us%40er:p%3Ass@h.test/x?token=t%20k&k=v';
    const text = 'failed\nfor us%40er us@er p%3Ass p:ss t%20k t k and v-alue';
    expect(scrubWebhookError(text, url)).toBe('failed for *** *** *** *** *** *** and ***-alue');
  });
});

const event = (level: LogEvent['level']): LogEvent => ({
  level,
  event: 'test.event',
  fields: { n: 1 },
  text: `a ${level} line`,
});

describe('createLog', () => {
  it.for([
    [false, ['info', 'warn', 'error'], true],
    [true, ['warn', 'error'], false],
  ] as const)('quiet %s keeps %j, request lines %s', ([quiet, levels, requests]) => {
    const lines: string[] = [];
    const { log, requests: requestLog } = createLog({ quiet, logFormat: 'json' }, (l) => lines.push(l));
    for (const level of ['info', 'warn', 'error'] as const) log(event(level));
    expect(lines.map((l) => JSON.parse(l).level)).toEqual(levels);
    expect(requestLog !== null).toBe(requests);
  });

  it('writes an event as one JSON object, a bare line as a warning, in either format', () => {
    const lines: string[] = [];
    const { log } = createLog({ quiet: false, logFormat: 'json' }, (l) => lines.push(l));
    log(event('info'));
    log('something odd');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { time: expect.any(String), level: 'info', event: 'test.event', n: 1 },
      { time: expect.any(String), level: 'warn', event: 'log', message: 'something odd' },
    ]);
    const at = new Date('2026-05-01T10:00:00.012Z');
    expect(formatEvent(event('warn'), 'pretty', at)).toBe('10:00:00.012 warn   test.event a warn line');
  });

  it('operational lines are events with a level: a failing disk is an error, its recovery a warning', () => {
    const failing = writeHealth({ writable: false, code: 'ENOSPC', message: 'no space', since: 0 });
    expect(JSON.parse(formatEvent(failing, 'json'))).toMatchObject({
      level: 'error',
      event: 'store.write_failing',
      code: 'ENOSPC',
      since: '1970-01-01T00:00:00.000Z',
    });
    expect(writeHealth({ writable: true })).toMatchObject({ level: 'warn', event: 'store.writable' });
  });

  it('a writer that throws loses its line and nothing else', () => {
    const { log, requests } = createLog({ quiet: false, logFormat: 'pretty' }, () => {
      throw new Error('EPIPE');
    });
    expect(() => log(event('error'))).not.toThrow();
    expect(() => requests?.('GET / 200')).not.toThrow();
  });
});
