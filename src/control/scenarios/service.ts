import type { ActiveScenarioView } from '../../contract/control/scenarios.js';
import { MAX_OVERRIDES, scenarioByName } from '../../contract/control/scenarios.js';
import { type Scenario, type ScenarioRule, scenario } from '../../contract/scenarios.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../domain/errors.js';
import { parseInput, parseJson } from '../../domain/parse.js';
import { ScenarioError } from '../../scenarios/library.js';

/**
 * `{name}` of a ready scenario, or a whole scenario object. Told apart before either is validated, so that a bad
 * scenario object hears which of its own fields is wrong.
 */
function chooseScenario(deps: Pick<Deps, 'scenarios'>, body: unknown): Scenario {
  const byName = scenarioByName().safeParse(body);
  if (byName.success) {
    const ready = deps.scenarios.library.get(byName.data.name);
    if (!ready) {
      const said = deps.scenarios.library.unknown(byName.data.name);
      throw new ApiError(404, `${said.charAt(0).toUpperCase()}${said.slice(1)}`);
    }
    return ready;
  }
  try {
    return deps.scenarios.library.resolve(parseInput(scenario, body));
  } catch (error) {
    if (error instanceof ScenarioError) throw new ApiError(400, error.message);
    throw error;
  }
}

/** Makes the scenario of a `PUT /scenario` body (its JSON text) the active one. */
export function setScenario(deps: Pick<Deps, 'scenarios'>, text: string): ActiveScenarioView {
  deps.scenarios.set(chooseScenario(deps, parseJson(text)));
  return deps.scenarios.describe();
}

/** Puts `rules` in front of the active ones; 400 past `MAX_OVERRIDES` in all, and nothing changes. */
export function addRules(deps: Pick<Deps, 'scenarios'>, rules: ScenarioRule[]): ActiveScenarioView {
  const held = deps.scenarios.describe().overrides.length;
  if (held + rules.length > MAX_OVERRIDES)
    throw new ApiError(
      400,
      `At most ${MAX_OVERRIDES} rules may be put in front of the scenario (${held} already are): clear them with DELETE /__sandbox/scenario, or set a scenario with PUT /__sandbox/scenario`,
    );
  deps.scenarios.use(rules);
  return deps.scenarios.describe();
}

/** Back to the start-up scenario. */
export function resetScenario(deps: Pick<Deps, 'scenarios'>): ActiveScenarioView {
  deps.scenarios.reset();
  return deps.scenarios.describe();
}
