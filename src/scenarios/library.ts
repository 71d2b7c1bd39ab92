import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as z from 'zod';
import { type Scenario, scenario, scenarioName } from '../contract/scenarios.js';
import { nearestName } from '../domain/nearest-name.js';
import { fieldPath, inOurWords } from '../domain/parse.js';
import { keepName, SandboxError } from '../errors.js';
import { embeddedFixturesDir } from '../store/fixtures.js';
import { nearestFolder } from '../store/nearest-folder.js';

/** The ready scenarios shipped with the package: the nearest `scenarios/` folder above this module. */
export const embeddedScenariosDir =
  nearestFolder(import.meta.url, 'scenarios', 'default.json', 4) ??
  join(dirname(fileURLToPath(import.meta.url)), 'scenarios');

/** A scenario that is unknown or does not hold (a bad file, a bad rule, a broken `extends`): 400. */
export class ScenarioError extends SandboxError {
  static {
    keepName(ScenarioError, 'ScenarioError');
  }

  constructor(message: string) {
    super(message, 400);
  }
}

/** The first problem of a zod failure, naming the field: `rules[2].effect.fail.errorCode: is required`. */
function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${fieldPath(issue?.path ?? []) || '(root)'}: ${issue?.message ?? 'invalid'}`;
}

/**
 * Validates a scenario file's content. Read once, at start-up: without compiling the schema's fast path first
 * (zod's JIT), which costs more than the few parses it would speed up.
 */
export function parseScenario(value: unknown, source: string): Scenario {
  const parsed = scenario.safeParse(value, { error: inOurWords, jitless: true });
  if (!parsed.success) throw new ScenarioError(`scenario ${source}: ${firstProblem(parsed.error)}`);
  return parsed.data;
}

/** A NIBSS response code and its message, as the fixtures keep them (`nibss.json`). */
export interface NibssCode {
  code: string;
  message: string;
}

/** The embedded fixtures' NIBSS codes; none when the file is missing. */
async function embeddedCodes(): Promise<NibssCode[]> {
  const file = join(embeddedFixturesDir, 'nibss.json');
  if (!existsSync(file)) return [];
  return JSON.parse(await readFile(file, 'utf8')) as NibssCode[];
}

/** Where a narration's marker ends: not in the middle of a longer word (`#sandbox:51` is not `#sandbox:510`). */
const MARKER_END = '(?![0-9A-Za-z])';
const HOUR = 3_600_000;

/**
 * The ready scenario `narration-codes`, for testers who drive an app by hand: a transfer or bulk item whose
 * narration holds `#sandbox:CODE` fails with that NIBSS code and its message (a code not in the list is ignored),
 * `#sandbox:reverse` succeeds and is reversed an hour later, and `#sandbox:lost` commits and then resets the
 * connection.
 */
export function narrationCodes(codes: readonly NibssCode[]) {
  const marked = (word: string) => ({ narration: `#sandbox:${word}${MARKER_END}` });
  const kinds = ['transfer', 'bulk.item'] as const;
  return {
    name: 'narration-codes',
    description: `Failures a tester types into an app: a transfer or bulk item whose narration holds #sandbox:CODE fails with that NIBSS code and its message (${codes.map((c) => c.code).join(', ') || 'none'}: the fixtures’ nibss.json; another code is ignored); #sandbox:reverse succeeds and is reversed an hour later; #sandbox:lost (single transfers) commits and then resets the connection, so a retry of its reference answers the committed answer. The magic accounts still fail.`,
    extends: 'default',
    rules: [
      ...kinds.flatMap((on) =>
        codes.map(({ code, message }) => ({
          on,
          match: marked(code),
          effect: { fail: { errorCode: code, errorMessage: message } },
        })),
      ),
      ...kinds.map((on) => ({
        on,
        match: marked('reverse'),
        effect: { reverse: { afterMs: HOUR, reason: 'Reversed by the receiving bank (#sandbox:reverse)' } },
      })),
      { on: 'transfer', match: marked('lost'), effect: { after: 'commit', fault: { kind: 'reset' } } },
    ],
  };
}

/** The ready scenarios, by name, with `extends` resolved (their rules then the extended one's). */
export class ScenarioLibrary {
  private constructor(private readonly byName: Map<string, Scenario>) {}

  /**
   * Loads every `*.json` of `dir`; a bad file fails with its name and the bad field. The ready scenario
   * `narration-codes` is made from `codes` (the fixtures' NIBSS codes; the embedded fixtures' when not given).
   */
  static async load(dir: string, codes?: readonly NibssCode[]): Promise<ScenarioLibrary> {
    const found = new Map<string, Scenario>();
    const files = existsSync(dir) ? (await readdir(dir)).filter((f) => f.endsWith('.json')).sort() : [];
    for (const file of files) {
      const path = join(dir, file);
      let raw: unknown;
      try {
        raw = JSON.parse(await readFile(path, 'utf8'));
      } catch (error) {
        throw new ScenarioError(`scenario ${path}: ${(error as Error).message}`);
      }
      const s = parseScenario(raw, path);
      if (`${s.name}.json` !== file)
        throw new ScenarioError(`scenario ${path}: name must be "${file.slice(0, -5)}"`);
      found.set(s.name, s);
    }
    // Made where it can extend the default scenario, unless a file of that name says otherwise.
    if (found.has('default') && !found.has('narration-codes')) {
      const made = narrationCodes(codes ?? (await embeddedCodes()));
      found.set(made.name, parseScenario(made, 'narration-codes (made from the fixtures’ nibss.json)'));
    }
    // In the order of their names, the made one among the files.
    const byName = new Map([...found].sort(([a], [b]) => (a < b ? -1 : 1)));
    const library = new ScenarioLibrary(byName);
    for (const s of byName.values()) library.resolve(s);
    return library;
  }

  /** Ready scenarios: name and description. */
  list(): { name: string; description: string }[] {
    return [...this.byName.values()].map((s) => ({ name: s.name, description: s.description }));
  }

  /**
   * What to tell whoever named a scenario there is none of: `no ready scenario named "flakey-bank" (did you mean
   * "flaky-bank"? ready: default, duplicate-webhooks, …)`, the suggestion only when a ready name is near enough to
   * have been meant. Every door that takes a name says it so (`PUT /__sandbox/scenario`, `x-sandbox-scenario`,
   * `--scenario`, a new isolated sandbox's `scenario`).
   */
  unknown(name: string): string {
    const names = [...this.byName.keys()];
    const near = nearestName(name, names);
    const ready = names.length > 0 ? `ready: ${names.join(', ')}` : 'no scenario is ready';
    return `no ready scenario named ${JSON.stringify(name)} (${near ? `did you mean "${near}"? ` : ''}${ready})`;
  }

  /** A ready scenario by name, `extends` resolved; undefined when there is none. */
  get(name: string): Scenario | undefined {
    const s = this.byName.get(name);
    return s && this.resolve(s);
  }

  /** A scenario's rules followed by those of the scenario it extends, and so on; a cycle is an error. */
  resolve(s: Scenario, seen: string[] = []): Scenario {
    if (!s.extends) return s;
    if (seen.includes(s.name))
      throw new ScenarioError(`scenario ${s.name}: extends itself through ${seen.join(' → ')}`);
    const base = this.byName.get(s.extends);
    if (!base) throw new ScenarioError(`scenario ${s.name}: extends: ${this.unknown(s.extends)}`);
    const resolved = this.resolve(base, [...seen, s.name]);
    return { ...s, extends: undefined, rules: [...s.rules, ...resolved.rules] };
  }

  /**
   * The scenario `--scenario` names: a ready scenario's name, or the path of a JSON file. A name may hold only
   * lowercase letters, digits and dashes, so it can never reach outside the scenarios folder.
   */
  async choose(nameOrFile: string): Promise<Scenario> {
    if (scenarioName.safeParse(nameOrFile).success) {
      const s = this.get(nameOrFile);
      if (!s) throw new ScenarioError(this.unknown(nameOrFile));
      return s;
    }
    if (!nameOrFile.endsWith('.json')) {
      throw new ScenarioError(
        `--scenario takes a ready scenario's name or a .json file, not "${nameOrFile}"`,
      );
    }
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(nameOrFile, 'utf8'));
    } catch (error) {
      throw new ScenarioError(`scenario ${nameOrFile}: ${(error as Error).message}`);
    }
    return this.resolve(parseScenario(raw, nameOrFile));
  }
}
