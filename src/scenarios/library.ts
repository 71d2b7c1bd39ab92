import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as z from 'zod';
import { type Scenario, scenario, scenarioName } from '../contract/scenarios.js';
import { nearestName } from '../domain/nearest-name.js';
import { fieldPath, inOurWords } from '../domain/parse.js';
import { keepName, SandboxError } from '../errors.js';

/** The ready scenarios shipped with the package: the nearest `scenarios/` folder above this module. */
export const embeddedScenariosDir = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'scenarios', 'default.json'))) return join(dir, 'scenarios');
    dir = dirname(dir);
  }
  return join(dirname(fileURLToPath(import.meta.url)), 'scenarios');
})();

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

/** The ready scenarios, by name, with `extends` resolved (their rules then the extended one's). */
export class ScenarioLibrary {
  private constructor(private readonly byName: Map<string, Scenario>) {}

  /** Loads every `*.json` of `dir`; a bad file fails with its name and the bad field. */
  static async load(dir: string): Promise<ScenarioLibrary> {
    const byName = new Map<string, Scenario>();
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
      byName.set(s.name, s);
    }
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
