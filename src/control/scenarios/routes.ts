import {
  addScenarioRulesContract,
  getScenarioContract,
  listScenariosContract,
  resetScenarioContract,
  setScenarioContract,
} from '../../contract/control/scenarios.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';
import { addRules, resetScenario, setScenario } from './service.js';

/** `/scenario` and `/scenarios`: the failure rules in force, and the ready scenarios. */
export const scenarioRoutes: Route<ControlRuntime>[] = [
  route(getScenarioContract, ({ deps }) => ({ data: deps.scenarios.describe() })),
  route(listScenariosContract, ({ deps }) => ({ data: deps.scenarios.library.list() })),
  route(setScenarioContract, ({ deps, text }) => ({ data: setScenario(deps, text) })),
  route(addScenarioRulesContract, ({ deps, body }) => ({ data: addRules(deps, body.rules) })),
  route(resetScenarioContract, ({ deps }) => ({ data: resetScenario(deps) })),
];
