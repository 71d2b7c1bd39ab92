import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { FiredRule, RuleEffect } from '../../src/contract/scenarios.js';
import { ScenarioController } from '../../src/scenarios/controller.js';
import { parseScenario, ScenarioLibrary } from '../../src/scenarios/library.js';
import type { ScenarioEvent } from '../../src/scenarios/matcher.js';

// A webhook `drop` names the rule that made it in its log line. The controller answers the rule with the effect
// (`match`), so a caller cannot have a `drop` without its rule: before, the dispatcher heard the rule through a
// callback, and a drop with no rule heard was sent as if no rule applied.

const DROP = { on: 'webhook', match: {}, effect: { webhook: 'drop' } };
const delivery: ScenarioEvent = { on: 'webhook', key: 'delivery 0 attempt 0' };

const dir = await mkdtemp(join(tmpdir(), 'scenarios-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
await writeFile(
  join(dir, 'lossy-ready.json'),
  JSON.stringify({ name: 'lossy-ready', description: 'loses every delivery', rules: [DROP] }),
);
const library = await ScenarioLibrary.load(dir);

const scenario = (name: string, rules: unknown[]) =>
  parseScenario({ name, description: 'the test’s', rules }, 'the test');

describe('ScenarioController.match: a rule’s effect always comes with the rule', () => {
  it('says so in its type: no effect without its rule', () => {
    expectTypeOf<ScenarioController['match']>().returns.toEqualTypeOf<{
      effect: RuleEffect;
      rule: FiredRule;
    } | null>();
  });

  it.each<[string, (c: ScenarioController) => void, string | undefined, FiredRule]>([
    ['the start-up scenario’s own rule', () => undefined, undefined, { name: 'startup', rule: 1 }],
    [
      'a rule put in front at run time',
      (c) => c.use(scenario('x', [DROP]).rules),
      undefined,
      { name: 'startup', rule: 0 },
    ],
    [
      'a scenario set at run time',
      (c) => c.set(scenario('lossy', [DROP])),
      undefined,
      { name: 'lossy', rule: 0 },
    ],
    [
      'a ready scenario a request picks by name',
      () => undefined,
      'lossy-ready',
      { name: 'lossy-ready', rule: 0 },
    ],
  ])('%s', (_label, arrange, chosen, rule) => {
    const transferOnly = { on: 'transfer', match: {}, effect: { delayMs: 1 } };
    const controller = new ScenarioController(scenario('startup', [transferOnly, DROP]), library, 1);
    arrange(controller);
    expect(controller.match(delivery, chosen)).toEqual({ effect: { webhook: 'drop' }, rule });
    // `check` tells its callback the same rule.
    const heard: FiredRule[] = [];
    expect(controller.check(delivery, chosen, (r) => heard.push(r))).toEqual({ webhook: 'drop' });
    expect(heard).toEqual([rule]);
  });

  it('answers null when no rule applies, or the scenario a request names is not ready', () => {
    const controller = new ScenarioController(scenario('startup', []), library, 1);
    expect(controller.match(delivery)).toBeNull();
    expect(controller.match(delivery, 'no-such-scenario')).toBeNull();
  });
});
