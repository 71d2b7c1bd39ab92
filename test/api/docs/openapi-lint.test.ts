import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../../support/sandbox.js';

// Both documents, as the sandbox serves them, through Redocly's `recommended` rules and Spectral's `spectral:oas`
// ruleset: the checks tools that read OpenAPI make of any document (an operation that says which credential it
// needs, a described tag, a component something uses), kept by the linters' own maintainers, which a check of our
// own would only approximate. openapi.test.ts holds the documents to what the routes do. Each document is linted
// once per linter, in memory.

// The spectral packages are CommonJS: their exports are properties of the default import.
const { Spectral, Document } = spectralCore;
const { Json } = spectralParsers;

type Which = 'api' | 'control';

/** A finding the documents keep on purpose: which document, which linter, the rule, where, and why. */
interface Kept {
  document: Which;
  linter: 'redocly' | 'spectral';
  rule: string;
  path: string;
  why: string;
}

const NO_CONTACT =
  'the project has no public contact address to give; an invented one would send readers nowhere';

/** Every warning the documents keep; anything else either linter says fails the test, and so does a stale entry. */
const KEPT: readonly Kept[] = [
  { document: 'api', linter: 'spectral', rule: 'info-contact', path: '#/info', why: NO_CONTACT },
  { document: 'control', linter: 'spectral', rule: 'info-contact', path: '#/info', why: NO_CONTACT },
];

const PATHS: Record<Which, string> = { api: '/openapi.json', control: '/__sandbox/openapi.json' };

/** One finding as a line a failure can show: where, which rule, and what the linter said. */
interface Finding {
  document: Which;
  linter: Kept['linter'];
  rule: string;
  path: string;
  severity: string;
  message: string;
}

const sandbox = useSandbox();
const findings: Finding[] = [];
let config: Awaited<ReturnType<typeof createConfig>> | undefined;

async function served(which: Which): Promise<string> {
  const res = await sandbox.app.request(PATHS[which]);
  expect(res.status).toBe(200);
  return res.text();
}

async function redocly(document: Which, text: string): Promise<Finding[]> {
  config ??= await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: text, absoluteRef: `${document}.json`, config });
  return problems.map((p) => ({
    document,
    linter: 'redocly',
    rule: p.ruleId,
    path: p.location[0]?.pointer ?? '',
    severity: p.severity,
    message: p.message,
  }));
}

async function spectral(document: Which, text: string): Promise<Finding[]> {
  const linter = new Spectral();
  // The ruleset's declaration widens each rule's `severity` to `string`, which spectral-core's own type refuses:
  // the value is the ruleset itself, only its declared type is too wide.
  // Its two rules that hold examples and defaults against their schemas are four fifths of its work; the same
  // check is answer-examples.test.ts's, with the ajv it already has for the answers' examples.
  linter.setRuleset({
    extends: [oas as RulesetDefinition],
    rules: { 'oas3-valid-media-example': 'off', 'oas3-valid-schema-example': 'off' },
  });
  const results = await linter.run(new Document(text, Json, `${document}.json`));
  const severities = ['error', 'warn', 'info', 'hint'];
  return results.map((r) => ({
    document,
    linter: 'spectral',
    rule: String(r.code),
    path: `#/${r.path.map((part) => String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
    severity: severities[r.severity] ?? String(r.severity),
    message: r.message,
  }));
}

const keyOf = (f: Pick<Kept, 'document' | 'linter' | 'rule' | 'path'>) =>
  `${f.document} ${f.linter} ${f.rule} at ${f.path}`;

beforeAll(async () => {
  for (const which of ['api', 'control'] as const) {
    const text = await served(which);
    const [a, b] = await Promise.all([redocly(which, text), spectral(which, text)]);
    findings.push(...a, ...b);
  }
});

describe('the OpenAPI documents lint clean', () => {
  it.for(['redocly', 'spectral'] as const)('%s finds nothing but the warnings kept on purpose', (linter) => {
    const found = findings
      .filter((f) => f.linter === linter)
      .map((f) => `${keyOf(f)} (${f.severity}): ${f.message}`);
    const kept = KEPT.filter((k) => k.linter === linter).map(keyOf);
    const unexpected = found.filter((line) => !kept.some((key) => line.startsWith(`${key} (`)));
    expect(unexpected, 'fix the document, or add the finding to KEPT with its reason').toEqual([]);
    const stale = kept.filter((key) => !found.some((line) => line.startsWith(`${key} (`)));
    expect(stale, 'these are no longer found: remove them from KEPT').toEqual([]);
  });

  it('keeps warnings only, each with a reason', () => {
    for (const k of KEPT) {
      const finding = findings.find((f) => keyOf(f) === keyOf(k));
      expect(finding?.severity, keyOf(k)).toBe('warn');
      expect(k.why.length).toBeGreaterThan(20);
    }
  });
});
