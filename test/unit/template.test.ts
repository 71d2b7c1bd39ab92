import { describe, expect, it } from 'vitest';
import {
  jsonEscaped,
  parseTemplate,
  readsBody,
  renderTemplate,
  seededUuid,
  type TemplateContext,
  type TemplateParts,
} from '../../src/domain/template.js';

// The template language of custom answers: what it takes, what it refuses, how it renders.

const context: TemplateContext = {
  path: '/api/v1/clients/business/customers',
  query: (name) => ({ page: '2', q: 'a"b' })[name],
  header: (name) => ({ 'user-agent': 'app/1.0' })[name],
  body: {
    amount: 5000,
    narration: 'line\nbreak "quoted"',
    transfers: [{ ref: 'r-1' }],
    nested: { a: [1, 2] },
  },
  now: () => '2030-01-02T03:04:05.006Z',
  uuid: (n) => `uuid-${n}`,
};

function parts(text: string): TemplateParts {
  const parsed = parseTemplate(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.parts;
}

const plain = (text: string) => renderTemplate(parts(text), context, (t) => t, 10_000);

describe('parseTemplate', () => {
  it.each([
    ['no template', 'hello', ['hello']],
    ['one alone', '{{now}}', [{ of: 'now' }]],
    ['spaces inside the braces', '{{  uuid }}', [{ of: 'uuid' }]],
    [
      'text around two',
      'at {{now}} on {{request.path}}!',
      ['at ', { of: 'now' }, ' on ', { of: 'path' }, '!'],
    ],
    ['a query parameter', '{{request.query.page}}', [{ of: 'query', name: 'page' }]],
    ['a header, any case', '{{request.header.User-Agent}}', [{ of: 'header', name: 'user-agent' }]],
    [
      'a body path through a list',
      '{{request.body.transfers.0.ref}}',
      [{ of: 'body', path: ['transfers', '0', 'ref'] }],
    ],
    ['a single brace is text', '{a} {', ['{a} {']],
  ] as const)('reads %s', (_name, text, expected) => {
    expect(parseTemplate(text)).toEqual({ parts: expected });
  });

  it.each([
    ['an unknown name', '{{request.bdy.amount}}', 'names nothing'],
    ['a bare request', '{{request}}', 'names nothing'],
    ['an empty template', '{{}}', 'names nothing'],
    ['code', '{{constructor.constructor("return 1")()}}', 'names nothing'],
    ['a helper of another language', '{{#each request.body}}', 'names nothing'],
    ['a body path with an empty segment', '{{request.body.a..b}}', 'names nothing'],
    ['a tab inside the braces', '{{\tnow}}', 'names nothing'],
    ['a query name with a space', '{{request.query.a b}}', 'names nothing'],
    ['no closing braces', 'x {{now', 'no "}}" closes'],
    ['a closing too far away', `{{${' '.repeat(201)}now}}`, 'no "}}" closes'],
  ])('refuses %s, naming the forms it takes', (_name, text, says) => {
    const parsed = parseTemplate(text);
    expect(parsed).toHaveProperty('error');
    const error = 'error' in parsed ? parsed.error : '';
    expect(error).toContain(says);
    if (says === 'names nothing') expect(error).toContain('{{request.query.NAME}}');
  });

  it('reads a text of many templates in one pass', () => {
    const text = '{{now}}x'.repeat(50_000);
    const read = parts(text);
    expect(read).toHaveLength(100_000);
  });
});

describe('renderTemplate', () => {
  it.each([
    ['the path', '{{request.path}}', '/api/v1/clients/business/customers'],
    ['a query parameter, and one absent', '{{request.query.page}}/{{request.query.none}}', '2/'],
    ['a header, and one absent', '{{request.header.user-agent}}|{{request.header.x-none}}', 'app/1.0|'],
    ['a number of the body as its text', '{{request.body.amount}}', '5000'],
    ['an item of a list', '{{request.body.transfers.0.ref}}', 'r-1'],
    ['an object as JSON', '{{request.body.nested}}', '{"a":[1,2]}'],
    ['a path that leads nowhere', '{{request.body.amount.x}}{{request.body.none.deeper}}', ''],
    ['the clock', '{{now}}', '2030-01-02T03:04:05.006Z'],
    ['each uuid afresh', '{{uuid}} {{uuid}}', 'uuid-0 uuid-1'],
  ])('puts in %s', (_name, text, expected) => {
    expect(plain(text)).toBe(expected);
  });

  it('never reads an inherited property of the body', () => {
    expect(plain('{{request.body.constructor}}{{request.body.__proto__}}')).toBe('');
  });

  it('escapes a value where it lands in a JSON string, so the text stays JSON', () => {
    const text = JSON.stringify({ said: '{{request.body.narration}}', q: '{{request.query.q}}' });
    const rendered = renderTemplate(parts(text), context, jsonEscaped, 10_000) ?? '';
    expect(JSON.parse(rendered)).toEqual({ said: 'line\nbreak "quoted"', q: 'a"b' });
  });

  it('stops at the limit: a long value put in many places gives nothing rather than megabytes', () => {
    const long = { ...context, body: { big: 'x'.repeat(1000) } };
    const many = parts('{{request.body.big}}'.repeat(100));
    expect(renderTemplate(many, long, (t) => t, 100_000)).toHaveLength(100_000);
    expect(renderTemplate(many, long, (t) => t, 99_999)).toBeUndefined();
  });

  it('says which texts read the body', () => {
    expect(readsBody(parts('{{request.body.a}}'))).toBe(true);
    expect(readsBody(parts('{{request.query.a}} {{now}}'))).toBe(false);
  });
});

describe('seededUuid', () => {
  it('is a version 4 uuid, the same for the same seed and key, another for another', () => {
    const one = seededUuid(1, 'POST /x 0 uuid 0');
    expect(one).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(seededUuid(1, 'POST /x 0 uuid 0')).toBe(one);
    expect(seededUuid(2, 'POST /x 0 uuid 0')).not.toBe(one);
    expect(seededUuid(1, 'POST /x 1 uuid 0')).not.toBe(one);
  });
});
