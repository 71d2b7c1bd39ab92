import fc from 'fast-check';
import banks from '../../fixtures/banks.json' with { type: 'json' };
import roles from '../../fixtures/roles.json' with { type: 'json' };
import states from '../../fixtures/states.json' with { type: 'json' };
import { collectionSchemas } from '../../src/domain/records.js';
import { A, B } from '../support/sandbox.js';
import {
  type AuthSpec,
  type BodySpec,
  type BusinessRef,
  type FileSpec,
  type JsonSchema,
  jsonSchemaOf,
  Live,
  type LiveSource,
  type QuerySpec,
  type RequestSpec,
  type Route,
  routes,
  type SecretVariant,
  type TokenVariant,
  type UserKey,
} from './model.js';

type Arb = fc.Arbitrary<unknown>;

const live = (source: LiveSource): fc.Arbitrary<Live> =>
  fc.nat({ max: 20 }).map((index) => new Live(source, index));

// ---------------------------------------------------------------------------------------------------------
// Junk: values of every JSON type and the strings that trip parsers.

/** Strings that mean something to a number parser, a path, a template or a prototype. */
const nastyStrings = [
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '-0',
  '0',
  '1e3',
  '1e400',
  '0x10',
  '0b11',
  '1.5',
  '00100',
  ' 100 ',
  '100 ',
  '１００',
  '٣٣٣',
  '9007199254740993',
  '99999999999999999999999',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '../../etc/passwd',
  '..',
  '%2e%2e',
  '%00',
  '\u0000',
  '\ud800',
  '\udfff',
  '\u202e\u0644\u0627',
  '😀😀😀',
  'Ω≈ç√∫',
  'ẞß',
  'İı',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  `\${7*7}`,
  '{{7*7}}',
  'a\r\nx-injected: 1',
  '\t\n',
];

const longStrings = fc
  .constantFrom(256, 1_000, 10_001, 70_000)
  .chain((n) => fc.constantFrom('a', '😀', '9', '\u0000').map((c) => c.repeat(n)));

const junkString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...nastyStrings) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: longStrings },
);

const junkNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    1.5,
    99,
    100,
    1_000_000_000,
    1_000_000_001,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    2 ** 64,
    1e21,
    1e308,
    -1e308,
    Number.MIN_VALUE,
    Number.EPSILON,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Keys that must never reach an object's prototype, and near-miss spellings of real fields. */
const nastyKeys = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  '',
  ' ',
  'amount ',
  'AMOUNT',
  'data',
  'status',
  'id',
  'isAdmin',
  'balance',
);

/** An object with an own property of any name, `__proto__` included (a plain assignment would set the prototype). */
function objectFrom(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const pollution = fc.constantFrom<unknown>(
  { polluted: 'yes', isAdmin: true },
  { toString: 'x' },
  { role: 'Admin', balance: 1 },
);

const { junk } = fc.letrec<{ junk: unknown }>((tie) => ({
  junk: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: junkString },
    { weight: 3, arbitrary: junkNumber },
    { weight: 2, arbitrary: fc.constantFrom(null, true, false) },
    { weight: 1, arbitrary: fc.array(tie('junk'), { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(fc.oneof(nastyKeys, fc.string({ maxLength: 8 })), fc.oneof(tie('junk'), pollution)), {
          maxLength: 3,
        })
        .map(objectFrom),
    },
  ),
}));

// ---------------------------------------------------------------------------------------------------------
// Values a real client would send, by field name, so that generated bodies often get past validation and reach
// the services (with the live state's ids in them).

const bankCodes = banks.banks.slice(0, 6).map((b) => b.code);
const roleIds = roles.map((r) => r.id);
// The fixtures' ids, and the numbers earlier versions used for them (which are no state now).
const stateIds = ['state_01', 'state_24', '24', '1', ...states.slice(-1).map((s) => s.id)];

const digits = (n: number) => fc.stringMatching(new RegExp(`^\\d{${n}}$`));

const fieldHints: Record<string, Arb> = {
  amount: fc.oneof(
    fc.integer({ min: 1, max: 5_000_000 }),
    // The edges: the least amount, the fee tiers', and past what a number holds exactly.
    fc.constantFrom(1, 0, -1, 500_000, 500_001, 5_000_000, 5_000_001, Number.MAX_SAFE_INTEGER, 2 ** 53),
    fc.integer({ min: 100, max: 100_000 }).map(String),
  ),
  receiverAccountNumber: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('0123456789', '9876543210') },
    { weight: 2, arbitrary: fc.constantFrom('0000000051', '0000000007', '0000000091', '0000000096') },
    { weight: 2, arbitrary: digits(10) },
  ),
  accountNumber: fc.oneof(
    { weight: 4, arbitrary: live('virtualAccountNumbers') },
    { weight: 1, arbitrary: live('businessAccountNumbers') },
    { weight: 1, arbitrary: digits(10) },
  ),
  payerAccountNumber: digits(10),
  receiverBankCode: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...bankCodes) },
    { weight: 1, arbitrary: fc.constantFrom('999', banks.homeBankCode) },
  ),
  bankCode: fc.constantFrom(...bankCodes, '000', banks.homeBankCode),
  payerBankCode: fc.constantFrom(...bankCodes, '123'),
  billers: fc.array(fc.constantFrom(...bankCodes, '999', 'abc'), { maxLength: 4 }),
  // A few shared references, so that replays and reuses (409) happen; unique ones otherwise.
  retrievalReference: fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom('ref-1', 'ref-2', 'seed-ok', 'seed-fail') },
    { weight: 4, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: junkString },
  ),
  reference: fc.oneof(fc.constantFrom('va-1', 'va-2', 'seed-va'), fc.string({ minLength: 1, maxLength: 64 })),
  bulkTransferId: fc.oneof(live('bulkTransfers'), fc.uuid()),
  itemId: fc.oneof(live('bulkItems'), fc.uuid()),
  transactionId: fc.oneof(live('transactions'), fc.string({ minLength: 1, maxLength: 64 })),
  authorizationToken: fc.oneof(live('invitationTokens'), fc.string({ minLength: 1, maxLength: 64 })),
  memberRoleId: fc.oneof(fc.constantFrom(...roleIds), fc.string({ maxLength: 64 })),
  // The registration form's business: an unapproved one of client A mostly.
  businessId: fc.oneof(
    { weight: 4, arbitrary: fc.constant(A.a2.id) },
    { weight: 1, arbitrary: live('businesses') },
    { weight: 1, arbitrary: fc.constantFrom(A.a1.id, B.b1.id) },
  ),
  stateId: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...stateIds) },
    { weight: 1, arbitrary: fc.constantFrom('0', '99') },
  ),
  otp: fc.oneof(
    { weight: 4, arbitrary: fc.constant('123456') },
    { weight: 1, arbitrary: fc.constant('000000') },
    { weight: 1, arbitrary: live('otps') },
  ),
  password: fc.oneof(
    { weight: 4, arbitrary: fc.constant('Sandbox123!') },
    { weight: 1, arbitrary: fc.constantFrom('sandbox123!', 'wrong-password', 'Sandbox123! ') },
    { weight: 1, arbitrary: fc.string() },
  ),
  email: fc.oneof(
    fc.constantFrom(
      A.owner.email,
      A.manager.email,
      A.viewer.email,
      B.owner.email,
      'OWNER@ADEBAYO.TEST',
      ' owner@adebayo.test ',
      'newcomer@adebayo.test',
    ),
    fc.nat({ max: 1_000 }).map((n) => `new${n}@fuzz.test`),
    fc.nat({ max: 1_000 }).map((n) => `New.${n}@Fuzz.Test`),
    fc.emailAddress(),
  ),
  // Only addresses that refuse at once: a generated request must never reach the network.
  webhookUrl: fc.constantFrom(
    'http://127.0.0.1:9/hooks',
    'http://localhost:9/hooks',
    'https://127.0.0.1:9/hooks',
    'http://[::1]:9/hooks',
    'ftp://127.0.0.1/x',
    'javascript:alert(1)',
    'https://',
    'not a url',
    'HTTPS://127.0.0.1:9/hooks',
    'http://user:pass@127.0.0.1:9/hooks',
  ),
  balance: fc.oneof(
    fc.constantFrom(0, 1, 500_000_000, Number.MAX_SAFE_INTEGER),
    fc.integer({ min: 0, max: 10_000_000_000 }),
  ),
  ms: fc.constantFrom(0, 1_000, 1_800_001, 3_600_001, 172_800_001),
  rules: fc.array(
    fc.constantFrom<unknown>(
      {
        on: 'transfer',
        match: { amount: { min: 100 } },
        effect: { fail: { errorCode: '91', errorMessage: 'Down' } },
      },
      { on: 'bulk.item', match: { everyNth: 2 }, effect: { hold: true } },
      { on: 'bulk.item', effect: { delayMs: 10 }, times: 1 },
      { on: 'webhook', match: { probability: 0.5 }, effect: { webhook: 'drop' } },
      {
        on: 'http',
        match: { method: 'GET', path: '^/api/v1/clients' },
        effect: { http: { status: 503, message: 'x' } },
      },
      { on: 'http', match: { path: '(a+)+$' }, effect: { http: { status: 418, message: 'teapot' } } },
      { on: 'transfer', match: { accountNumberPattern: '^0+$' }, effect: { delayMs: 0 } },
    ),
    { minLength: 1, maxLength: 3 },
  ),
  // Drain: bounded, so that a run never waits long.
  timeoutMs: fc.constantFrom('1', '50', '2000', '0', '-1', 'abc', '600001'),
};

// ---------------------------------------------------------------------------------------------------------
// JSON Schema → arbitrary, loosely: mostly valid values, sometimes a wrong one at any node.

interface Ctx {
  depth: number;
  /** Strict: only values of the schema (and the field hints); loose: junk may replace any node. */
  strict: boolean;
}

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'email') return fc.emailAddress();
  if (s.format === 'uri') return fieldHints.webhookUrl as fc.Arbitrary<string>;
  if (s.pattern !== undefined) {
    try {
      return fc.stringMatching(new RegExp(s.pattern), { maxLength: 64 });
    } catch {
      // A pattern fast-check cannot invert: a plain string instead.
    }
  }
  const minLength = s.minLength ?? 0;
  const maxLength = Math.min(s.maxLength ?? minLength + 24, minLength + 24);
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
  );
}

function integerArb(s: JsonSchema, ctx: Ctx): fc.Arbitrary<number> {
  const min = Math.max(s.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER);
  const max = Math.min(s.maximum ?? 1_000_000_000, min + 1_000_000_000, Number.MAX_SAFE_INTEGER);
  const edges = ctx.strict ? fc.constantFrom(min, max) : fc.constantFrom(min, max, min - 1, max + 1);
  return fc.oneof({ weight: 4, arbitrary: fc.integer({ min, max }) }, { weight: 1, arbitrary: edges });
}

function objectArb(s: JsonSchema, ctx: Ctx): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set(s.required ?? []);
  const fields = Object.entries(s.properties ?? {}).map(([key, child]) =>
    fc.tuple(
      fc.constant(key),
      fieldArb(key, child, ctx),
      // Required fields are there (nearly always, when loose); optional ones half the time.
      required.has(key)
        ? ctx.strict
          ? fc.constant(true)
          : fc.oneof(
              { weight: 12, arbitrary: fc.constant(true) },
              { weight: 1, arbitrary: fc.constant(false) },
            )
        : fc.boolean(),
    ),
  );
  const extras: fc.Arbitrary<[string, unknown][]> = ctx.strict
    ? fc.constant([])
    : fc.oneof(
        { weight: 6, arbitrary: fc.constant<[string, unknown][]>([]) },
        {
          weight: 1,
          arbitrary: fc.array(fc.tuple(fc.oneof(nastyKeys, fc.string({ maxLength: 8 })), junk), {
            minLength: 1,
            maxLength: 3,
          }),
        },
      );
  return fc
    .tuple(fc.tuple(...fields), extras)
    .map(([present, extra]) =>
      objectFrom([
        ...present.filter(([, , keep]) => keep).map(([key, value]) => [key, value] as const),
        ...extra.map(([key, value]) => [key, value] as const),
      ]),
    );
}

/** A value for the schema at this node (its children may still be junk, when loose). */
function validArb(s: JsonSchema, ctx: Ctx): Arb {
  const next = { ...ctx, depth: ctx.depth + 1 };
  if (ctx.depth > 6) return junk;
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (union && union.length > 0) {
    // `{}` next to the others is what zod gives a file: its media types, not a value.
    const options = union.filter((u) => u.contentMediaType === undefined);
    if (options.length > 0) return fc.oneof(...options.map((u) => looseArb(u, next)));
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object':
      return objectArb(s, next);
    case 'array': {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.min(s.maxItems ?? minLength + 4, minLength + 4);
      return fc.array(looseArb(s.items ?? {}, next), { minLength, maxLength });
    }
    case 'string':
      return stringArb(s);
    case 'integer':
      return integerArb(s, ctx);
    case 'number':
      return ctx.strict
        ? integerArb(s, ctx)
        : fc.oneof(integerArb(s, ctx), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return junk;
  }
}

/** A value of the schema; when loose, sometimes junk in its place. */
function looseArb(s: JsonSchema, ctx: Ctx): Arb {
  if (ctx.strict) return validArb(s, ctx);
  return fc.oneof({ weight: 9, arbitrary: validArb(s, ctx) }, { weight: 1, arbitrary: junk });
}

/** A field by its name: a realistic value (often one the live state knows) or one from its schema. */
function fieldArb(key: string, s: JsonSchema, ctx: Ctx): Arb {
  const hint = fieldHints[key];
  if (!hint) return looseArb(s, ctx);
  if (ctx.strict) return fc.oneof({ weight: 5, arbitrary: hint }, { weight: 1, arbitrary: validArb(s, ctx) });
  return fc.oneof(
    { weight: 5, arbitrary: hint },
    { weight: 3, arbitrary: validArb(s, ctx) },
    { weight: 1, arbitrary: junk },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Bodies.

const jsonTypes = fc.constantFrom<string | null>(
  'text/plain',
  'application/json; charset=utf-8',
  'application/problem+json',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/json;;',
  'multipart/form-data; boundary=----fuzz',
  'application/x-www-form-urlencoded',
  '',
  ';',
  null,
);

/** Mostly `application/json`, sometimes another or none. */
const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant<string | null>('application/json') },
  { weight: 1, arbitrary: jsonTypes },
);

/** Number and literal tokens JSON.stringify can never write. */
const rawTokens = fc.constantFrom(
  '1e309',
  '-1e309',
  '1e-400',
  '-0',
  '100.0',
  '1E2',
  '12345678901234567890123',
  '0.1e3',
  '"\\ud800"',
  '"\\u0000"',
  '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
  '{"__proto__":{"polluted":"yes"}}'.slice(0, -1),
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
);

const rawBodies = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    '{"a":',
    '[',
    'null',
    'true',
    '0',
    '""',
    '[]',
    '{}',
    "{'a': 1}",
    '{"a":1,}',
    '\u0000',
    '\ufeff{}',
    'NaN',
    '{"__proto__":{"polluted":"yes","isAdmin":true}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '{"amount":1e999}',
    '{"a":1}{"b":2}',
    `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
  ),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

function jsonBodyArb(route: Route): fc.Arbitrary<BodySpec> {
  const schema = route.body ? jsonSchemaOf(route.body) : null;
  const strict: Arb = schema ? validArb(schema, { depth: 0, strict: true }) : junk;
  const shaped: Arb = schema ? validArb(schema, { depth: 0, strict: false }) : junk;
  const options: fc.WeightedArbitrary<BodySpec>[] = [
    {
      weight: schema ? 35 : 5,
      arbitrary: fc
        .tuple(strict, contentType)
        .map(([value, type]): BodySpec => ({ kind: 'json', value, contentType: type, patch: null })),
    },
    {
      weight: schema ? 30 : 5,
      arbitrary: fc
        .tuple(shaped, contentType)
        .map(([value, type]): BodySpec => ({ kind: 'json', value, contentType: type, patch: null })),
    },
    {
      weight: 10,
      arbitrary: fc
        .tuple(junk, contentType)
        .map(([value, type]): BodySpec => ({ kind: 'json', value, contentType: type, patch: null })),
    },
    {
      weight: 5,
      arbitrary: fc
        .tuple(rawBodies, contentType)
        .map(([text, type]): BodySpec => ({ kind: 'raw', text, contentType: type })),
    },
    {
      weight: route.method === 'GET' || route.method === 'DELETE' || !schema ? 50 : 5,
      arbitrary: fc
        .oneof(fc.constant(null), contentType)
        .map((type): BodySpec => ({ kind: 'none', contentType: type })),
    },
  ];
  if (schema?.properties) {
    const keys = Object.keys(schema.properties);
    options.push({
      weight: 10,
      arbitrary: fc.tuple(shaped, fc.constantFrom(...keys, '__proto__', 'constructor'), rawTokens).map(
        ([value, key, raw]): BodySpec => ({
          kind: 'json',
          value,
          contentType: 'application/json',
          patch: { key, raw },
        }),
      ),
    });
  }
  // Just over the JSON body limit (1 MiB), now and then.
  options.push({
    weight: 1,
    arbitrary: fc
      .constantFrom(1_048_577, 2_000_000)
      .map((bytes): BodySpec => ({ kind: 'huge', bytes, contentType: 'application/json' })),
  });
  return fc.oneof(...options);
}

const fileName = fc.oneof(
  fc.constantFrom(
    'id.jpg',
    'id.png',
    'photo',
    '../../etc/passwd',
    '..\\..\\boot.ini',
    '.htaccess',
    'a/b/c.png',
    '%2e%2e%2fx.png',
    '\u0000.png',
    'ïd 😀.jpeg',
    '',
    'x'.repeat(300),
  ),
  fc.string({ maxLength: 20 }),
);

const fileSpec: fc.Arbitrary<FileSpec> = fc.record({
  name: fileName,
  type: fc.constantFrom('image/jpeg', 'image/png', 'application/pdf', 'text/plain', ''),
  bytes: fc.oneof(
    fc.constantFrom<FileSpec['bytes']>('jpeg', 'png', 'gif', 'empty', 'text'),
    fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 16 }),
  ),
});

function formBodyArb(route: Route): fc.Arbitrary<BodySpec> {
  const schema = route.form ? jsonSchemaOf(route.form) : {};
  const textFields = Object.entries(schema.properties ?? {}).filter(
    ([, s]) => s.type === 'string' && !s.format,
  );
  // Strict: every field there, from its hint or schema, and one JPEG or PNG photo; loose: anything may be off.
  const fieldsOf = (strict: boolean) =>
    fc.tuple(
      ...textFields.map(([key, s]) =>
        fc.tuple(
          fc.constant(key),
          strict
            ? fieldArb(key, s, { depth: 0, strict: true })
            : fc.oneof(
                { weight: 6, arbitrary: fieldArb(key, s, { depth: 0, strict: true }) },
                { weight: 1, arbitrary: junkString },
              ),
          strict
            ? fc.constant(true)
            : fc.oneof(
                { weight: 8, arbitrary: fc.constant(true) },
                { weight: 1, arbitrary: fc.constant(false) },
              ),
        ),
      ),
    );
  const goodPhoto = fc.record({
    name: fc.constantFrom('id.jpg', 'id.png', 'photo', '../../etc/passwd', 'ïd 😀.jpeg'),
    type: fc.constantFrom('image/jpeg', 'image/png', 'application/octet-stream'),
    bytes: fc.constantFrom<FileSpec['bytes']>('jpeg', 'png'),
  });
  const photosOf = (strict: boolean) =>
    (strict ? goodPhoto.map((f) => [f]) : fc.array(fileSpec, { minLength: 0, maxLength: 2 })).map((fs) =>
      fs.map((f) => ['photoId', f] as const),
    );
  const docs = fc
    .array(fileSpec, { maxLength: 7 })
    .map((fs) => fs.map((f) => ['businessDocuments', f] as const));
  const extra = fc.array(fc.tuple(fc.oneof(nastyKeys, fc.string({ maxLength: 8 })), junkString), {
    maxLength: 2,
  });
  const formOf = (strict: boolean) =>
    fc
      .tuple(fieldsOf(strict), photosOf(strict), docs, strict ? fc.constant([]) : extra)
      .map(([fs, photos, documents, more]): BodySpec => {
        const out: [string, string | Live | FileSpec][] = [];
        for (const [key, value, keep] of fs) {
          if (!keep) continue;
          out.push([
            key,
            value instanceof Live ? value : typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
          ]);
        }
        for (const [key, f] of [...photos, ...documents]) out.push([key, f]);
        for (const [key, value] of more) out.push([key, value]);
        return { kind: 'form', fields: out, contentType: null };
      });
  return fc.oneof(
    { weight: 4, arbitrary: formOf(true) },
    { weight: 4, arbitrary: formOf(false) },
    { weight: 1, arbitrary: jsonBodyArb(route) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '------fuzz\r\nContent-Disposition: form-data; name="bvn"\r\n\r\n1\r\n',
          '------fuzz--',
          'garbage',
          '',
        )
        .map(
          (text): BodySpec => ({
            kind: 'raw',
            text,
            contentType: 'multipart/form-data; boundary=----fuzz',
          }),
        ),
    },
  );
}

/** `PUT /__sandbox/state`: small and bounded. The live state with a few fields changed, or anything small. */
function stateBodyArb(): fc.Arbitrary<BodySpec> {
  return fc.oneof(
    { weight: 6, arbitrary: stateEditArb },
    {
      weight: 2,
      arbitrary: fc
        .tuple(junk, contentType)
        .map(([value, type]): BodySpec => ({ kind: 'json', value, contentType: type, patch: null })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(rawBodies, contentType)
        .map(([text, type]): BodySpec => ({ kind: 'raw', text, contentType: type })),
    },
  );
}

/** Each collection of the state with the JSON Schema of its records (from the store's own zod schemas). */
const recordSchemas = Object.entries(collectionSchemas).map(
  ([name, schema]) => [name, jsonSchemaOf(schema).properties ?? {}] as const,
);
const stateCollections = recordSchemas.map(([name]) => name);

/** A value for one field of one record: of the field's own type mostly (so the import takes it), or not. */
const stateFieldEdit: fc.Arbitrary<[string[], unknown]> = fc
  .constantFrom(...recordSchemas)
  .chain(([name, fields]) =>
    fc.tuple(
      fc.constant(name),
      fc.nat({ max: 5 }),
      fc.constantFrom(...Object.entries(fields), ['x', {}] as [string, JsonSchema]),
    ),
  )
  .chain(([name, index, [field, schema]]) =>
    fc
      .oneof(
        { weight: 4, arbitrary: validArb(schema, { depth: 0, strict: true }) },
        { weight: 1, arbitrary: fc.constantFrom<unknown>('', 'missing-id', 0, -1, null) },
        { weight: 1, arbitrary: fc.oneof(live('businesses'), live('clients'), live('bulkTransfers')) },
        { weight: 1, arbitrary: junk },
      )
      .map((value): [string[], unknown] => [['collections', name, String(index), field], value]),
  );

/** The live state with one or two fields changed (a dangling reference, a wrong amount...) or a collection left out. */
const stateEditArb: fc.Arbitrary<BodySpec> = fc
  .tuple(
    fc.array(
      fc.oneof(
        { weight: 6, arbitrary: stateFieldEdit },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom('version', 'collections', '__proto__', 'extra'), junk)
            .map(([k, v]): [string[], unknown] => [[k], v]),
        },
      ),
      { minLength: 1, maxLength: 2 },
    ),
    // A collection left out now and then.
    fc.oneof(
      { weight: 6, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom(...stateCollections) },
    ),
  )
  .map(([edits, drop]): BodySpec => ({ kind: 'state', edits, drop, contentType: 'application/json' }));

/** `PUT /__sandbox/state` with a changed copy of the live state: what later requests must survive. */
export const stateImportArb: fc.Arbitrary<RequestSpec> = stateEditArb.map(
  (body): RequestSpec => ({
    route: 'PUT /__sandbox/state',
    method: 'PUT',
    path: '/__sandbox/state',
    params: {},
    rawPath: null,
    query: { kind: 'params', entries: [] },
    auth: { kind: 'none' },
    headers: [],
    body,
  }),
);

function bodyArb(route: Route): fc.Arbitrary<BodySpec> {
  if (route.key === 'PUT /__sandbox/state') return stateBodyArb();
  if (route.form) return formBodyArb(route);
  return jsonBodyArb(route);
}

// ---------------------------------------------------------------------------------------------------------
// Query strings.

const rawQueries = fc.constantFrom(
  '%',
  '%zz',
  '%E0%A4%A',
  'page=%ZZ',
  'page=1&page=2',
  'page[]=1',
  'page[a]=1',
  'page=１',
  '&&&',
  '=',
  '=1',
  'limit',
  'page=1e2&limit=1e1',
  'page=0x1',
  `limit=${'9'.repeat(400)}`,
  '__proto__[polluted]=yes',
  'constructor[prototype][polluted]=yes',
  'status=open&status=resolved',
  'timeoutMs=1&timeoutMs=2',
  '?',
  '#frag',
  'a=%00',
);

function queryArb(route: Route): fc.Arbitrary<QuerySpec> {
  const schema = route.query ? jsonSchemaOf(route.query) : null;
  const shaped: fc.Arbitrary<[string, unknown][]> = schema
    ? fc
        .boolean()
        .chain((strict) => objectArb(schema, { depth: 0, strict }))
        .map((o) => Object.entries(o))
    : fc.constant([]);
  const extra = fc.array(fc.tuple(fc.oneof(nastyKeys, fc.string({ maxLength: 8 })), junkString), {
    maxLength: 2,
  });
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constant<QuerySpec>({ kind: 'params', entries: [] }),
    },
    {
      weight: schema ? 6 : 1,
      arbitrary: fc
        .tuple(shaped, fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: extra }))
        .map(([entries, more]): QuerySpec => ({ kind: 'params', entries: [...entries, ...more] })),
    },
    { weight: 1, arbitrary: rawQueries.map((text): QuerySpec => ({ kind: 'raw', text })) },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Path parameters.

/** The collection a `{param}` names, from the path segment in front of it. */
function paramSource(route: Route, param: string): LiveSource {
  const before = route.path.split(`/{${param}}`)[0]?.split('/').pop() ?? '';
  const bySegment: Record<string, LiveSource> = {
    'bulk-transfer': 'bulkTransfers',
    payouts: 'payouts',
    disputes: 'disputes',
    audits: 'audits',
    clients: 'clients',
    businesses: 'businesses',
    deliveries: 'deliveries',
  };
  return bySegment[before] ?? 'transactions';
}

const junkParams = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2E%2E%2F%2E%2E',
    '..%2f..%2fetc',
    '%2F',
    '%00',
    '%',
    '%zz',
    '%E0%A4%A',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'null',
    'undefined',
    '0',
    '-1',
    ' ',
    '%20',
    '😀',
    encodeURIComponent('ẞ😀'),
    'Ω≈ç',
    'x'.repeat(5_000),
    'a;b',
    'a,b',
    "'",
  ),
  fc.uuid(),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);

function paramArb(route: Route, param: string): fc.Arbitrary<string | Live> {
  const source = paramSource(route, param);
  const fixtures =
    source === 'businesses'
      ? [A.a1.id, A.a2.id, B.b1.id]
      : source === 'clients'
        ? [A.id, B.id]
        : ['00000000-0000-4000-8000-000000000000'];
  return fc.oneof(
    { weight: 4, arbitrary: live(source) },
    { weight: 2, arbitrary: fc.constantFrom(...fixtures) },
    { weight: 3, arbitrary: junkParams },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Credentials and headers.

const userOf: Record<UserKey, 'A' | 'B'> = { ownerA: 'A', managerA: 'A', viewerA: 'A', ownerB: 'B' };

const junkSecret: fc.Arbitrary<SecretVariant> = fc.oneof(
  fc.constantFrom(
    `sk_live_${'0'.repeat(32)}`,
    `pk_live_${'0'.repeat(32)}`,
    'sk_live_',
    `sk_sandbox_${'0'.repeat(32)}`,
    A.publicKey,
    `${A.secretKey} `,
    `${A.secretKey}x`,
    A.secretKey.toUpperCase(),
    '',
    'null',
    'ẞ',
  ),
  fc.string({ maxLength: 40 }),
);

/** A business id header that fits the client half the time. */
function businessRef(client: 'A' | 'B'): fc.Arbitrary<BusinessRef> {
  const own: fc.Arbitrary<BusinessRef> =
    client === 'A'
      ? fc.constantFrom<BusinessRef>({ kind: 'fixture', name: 'a1' }, { kind: 'fixture', name: 'a2' })
      : fc.constant<BusinessRef>({ kind: 'fixture', name: 'b1' });
  return fc.oneof(
    { weight: 6, arbitrary: own },
    {
      weight: 1,
      arbitrary: fc.constantFrom<BusinessRef>(
        { kind: 'none' },
        { kind: 'fixture', name: client === 'A' ? 'b1' : 'a1' },
      ),
    },
    { weight: 1, arbitrary: live('businesses') },
    { weight: 1, arbitrary: junkParams },
  );
}

const tokenVariant = fc.oneof(
  { weight: 12, arbitrary: fc.constant<TokenVariant>('valid') },
  {
    weight: 2,
    arbitrary: fc.constantFrom<TokenVariant>(
      'expired',
      'wrong-key',
      'unknown-user',
      'alg-none',
      'lowercase-bearer',
      'no-scheme',
      'truncated',
    ),
  },
);

const secretVariant = (weightValid: number) =>
  fc.oneof(
    { weight: weightValid, arbitrary: fc.constant<SecretVariant>('valid') },
    { weight: 1, arbitrary: fc.constantFrom<SecretVariant>('other', 'swapped') },
    { weight: 1, arbitrary: junkSecret },
  );

const schemeA: fc.Arbitrary<AuthSpec> = fc
  .constantFrom<UserKey>('ownerA', 'ownerA', 'managerA', 'viewerA', 'ownerB')
  .chain((user) =>
    fc.record({
      kind: fc.constant('A' as const),
      user: fc.constant(user),
      business: businessRef(userOf[user]),
      token: tokenVariant,
      secret: secretVariant(12),
    }),
  );

const schemeB: fc.Arbitrary<AuthSpec> = fc.constantFrom<'A' | 'B'>('A', 'A', 'B').chain((client) =>
  fc.record({
    kind: fc.constant('B' as const),
    client: fc.constant(client),
    business: businessRef(client),
    publicKey: secretVariant(12),
    secret: secretVariant(12),
  }),
);

const secretOnly: fc.Arbitrary<AuthSpec> = fc.record({
  kind: fc.constant('secretKey' as const),
  client: fc.constantFrom<'A' | 'B'>('A', 'B'),
  secret: secretVariant(6),
});

const authHeaderNames = fc.constantFrom(
  'authorization',
  'secret_key',
  'businessid',
  'x-api-key',
  'x-api-secret',
  'x-sandbox-token',
);
const rawAuth: fc.Arbitrary<AuthSpec> = fc
  .array(
    fc.tuple(
      authHeaderNames,
      fc.oneof(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Bearer  ',
          'Bearer a.b.c',
          'Bearer ..',
          'Bearer eyJhbGciOiJub25lIn0.e30.',
          'Basic dXNlcjpwYXNz',
          `Bearer ${'a'.repeat(9_000)}`,
          A.secretKey,
          B.publicKey,
          A.a1.id,
        ),
        fc.string({ maxLength: 30 }),
      ),
    ),
    { maxLength: 4 },
  )
  .map((headers): AuthSpec => ({ kind: 'raw', headers }));

/** Fully valid credentials of the route's own scheme: a fixture user or client with one of its businesses. */
function validAuth(route: Route): fc.Arbitrary<AuthSpec> {
  const own = (client: 'A' | 'B'): fc.Arbitrary<BusinessRef> =>
    client === 'A'
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constant<BusinessRef>({ kind: 'fixture', name: 'a1' }) },
          { weight: 1, arbitrary: fc.constant<BusinessRef>({ kind: 'fixture', name: 'a2' }) },
        )
      : fc.constant<BusinessRef>({ kind: 'fixture', name: 'b1' });
  switch (route.security) {
    case 'A':
      return fc
        .constantFrom<UserKey>('ownerA', 'ownerA', 'ownerA', 'managerA', 'viewerA', 'ownerB')
        .chain((user) =>
          fc.record({
            kind: fc.constant('A' as const),
            user: fc.constant(user),
            business: own(userOf[user]),
            token: fc.constant<TokenVariant>('valid'),
            secret: fc.constant<SecretVariant>('valid'),
          }),
        );
    case 'B':
      return fc.constantFrom<'A' | 'B'>('A', 'A', 'A', 'B').chain((client) =>
        fc.record({
          kind: fc.constant('B' as const),
          client: fc.constant(client),
          business: own(client),
          publicKey: fc.constant<SecretVariant>('valid'),
          secret: fc.constant<SecretVariant>('valid'),
        }),
      );
    case 'secretKey':
      return fc.record({
        kind: fc.constant('secretKey' as const),
        client: fc.constantFrom<'A' | 'B'>('A', 'B'),
        secret: fc.constant<SecretVariant>('valid'),
      });
    case 'none':
      return fc.constant<AuthSpec>({ kind: 'none' });
  }
}

/** Valid credentials of the route's own scheme half the time; a near miss, another scheme, junk or nothing otherwise. */
function authArb(route: Route): fc.Arbitrary<AuthSpec> {
  const nearMiss =
    route.security === 'A'
      ? schemeA
      : route.security === 'B'
        ? schemeB
        : route.security === 'secretKey'
          ? secretOnly
          : rawAuth;
  return fc.oneof(
    { weight: 10, arbitrary: validAuth(route) },
    { weight: 4, arbitrary: nearMiss },
    { weight: 1, arbitrary: fc.constant<AuthSpec>({ kind: 'none' }) },
    { weight: 2, arbitrary: fc.oneof(schemeA, schemeB, secretOnly) },
    { weight: 3, arbitrary: rawAuth },
  );
}

/** Ready scenarios a request may pick for itself; not `provider-outage` (503 by design) nor the slow one. */
const scenarioHeader = fc.constantFrom(
  'default',
  'happy-path',
  'flaky-bank',
  'insufficient-funds-midway',
  'duplicate-webhooks',
  'webhook-receiver-down',
  'no-such-scenario',
  '../default',
  'DEFAULT',
);

const extraHeaders: fc.Arbitrary<[string, string][]> = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constant('x-request-id'),
      fc.oneof(fc.constantFrom('fuzz-1', '', 'a b', 'x'.repeat(200)), fc.string({ maxLength: 20 })),
    ),
    fc.tuple(fc.constant('x-sandbox-scenario'), scenarioHeader),
    fc.tuple(
      fc.constant('x-forwarded-for'),
      fc.constantFrom('10.0.0.1', '', ', ,', '::1', 'x'.repeat(300), '1.2.3.4, 5.6.7.8'),
    ),
    fc.tuple(
      fc.constantFrom('accept', 'origin', 'cookie', 'accept-encoding', 'user-agent'),
      fc.string({ maxLength: 20 }),
    ),
    fc.tuple(fc.constantFrom('businessid', 'BUSINESSID'), fc.constantFrom(A.a1.id, B.b1.id, '')),
  ),
  { maxLength: 3 },
);

export function requestArb(route: Route): fc.Arbitrary<RequestSpec> {
  const params = fc.tuple(...route.params.map((p) => paramArb(route, p).map((v) => [p, v] as const)));
  return fc
    .record({
      params,
      query: queryArb(route),
      auth: authArb(route),
      headers: fc.oneof(
        { weight: 3, arbitrary: fc.constant<[string, string][]>([]) },
        { weight: 1, arbitrary: extraHeaders },
      ),
      body:
        route.method === 'GET' ? fc.constant<BodySpec>({ kind: 'none', contentType: null }) : bodyArb(route),
    })
    .map(
      ({ params: ps, query, auth, headers, body }): RequestSpec => ({
        route: route.key,
        method: route.method,
        path: route.path,
        params: Object.fromEntries(ps),
        rawPath: null,
        query,
        auth,
        headers,
        body,
      }),
    );
}

const prefixes = fc.constantFrom('/api/v1', '/__sandbox', '/api/v1/clients/business', '/api', '');

/** A path no operation lists, or a known path under a method it does not take. */
export const unknownRequestArb: fc.Arbitrary<RequestSpec> = fc
  .tuple(
    fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
    fc.oneof(
      fc
        .tuple(prefixes, fc.array(junkParams, { minLength: 1, maxLength: 3 }))
        .map(([p, segs]) => `${p}/${segs.join('/')}`),
      fc.constantFrom(...routes.map((r) => r.path.replace(/\{\w+\}/g, 'x'))),
      fc.constantFrom(
        '/api/v1/',
        '/api/v1//auth//signin',
        '/api/v1/auth/signin/',
        '/__sandbox/',
        '/api/v1/../__sandbox/state',
        '/API/V1/auth/signin',
      ),
    ),
    authArb({ key: 'x', method: 'GET', path: '', params: [], security: 'A', businessIdHeader: 401 }),
    fc.oneof(
      fc.constant<BodySpec>({ kind: 'none', contentType: null }),
      jsonBodyArb({
        key: 'x',
        method: 'POST',
        path: '',
        params: [],
        security: 'none',
        businessIdHeader: undefined,
      }),
    ),
  )
  .map(
    ([method, path, auth, body]): RequestSpec => ({
      route: `${method} (unlisted) ${path.slice(0, 80)}`,
      method,
      path,
      params: {},
      rawPath: path,
      query: { kind: 'params', entries: [] },
      auth,
      headers: [],
      body: method === 'GET' ? { kind: 'none', contentType: null } : body,
    }),
  );
