import { defineRoute, type Route, reply } from '../../http/route.js';
import { activeScenario, overrideBody, readyScenarios, scenarioChoice } from './schemas.js';
import { addRules, MAX_OVERRIDES, resetScenario, setScenario } from './service.js';

const TAG = 'Scenarios';

/** `/scenario` and `/scenarios`: the failure rules in force, and the ready scenarios. */
export const scenarioRoutes: Route[] = [
  defineRoute({
    operationId: 'getScenario',
    method: 'get',
    path: '/scenario',
    summary: 'The active scenario',
    description: 'The start-up and active scenario, the overrides and the rules in force.',
    tag: TAG,
    auth: { scheme: 'none' },
    responses: { 200: reply('Active scenario', activeScenario) },
    handle: ({ deps }) => ({ data: deps.scenarios.describe() }),
  }),
  defineRoute({
    operationId: 'listScenarios',
    method: 'get',
    path: '/scenarios',
    summary: 'Ready scenarios',
    tag: TAG,
    auth: { scheme: 'none' },
    responses: { 200: reply('Ready scenarios', readyScenarios) },
    handle: ({ deps }) => ({ data: deps.scenarios.library.list() }),
  }),
  defineRoute({
    operationId: 'setScenario',
    method: 'put',
    path: '/scenario',
    summary: 'Make a scenario active',
    description: 'A ready scenario by `{name}`, or a whole scenario object.',
    tag: TAG,
    auth: { scheme: 'none' },
    // Read as text: which of the two it is decides the schema its errors are told against.
    text: true,
    body: scenarioChoice,
    example: { name: 'flaky-bank' },
    responses: {
      200: reply('Scenario active', activeScenario),
      400: 'A bad field of the scenario (named)',
      404: '`No ready scenario named "…"`',
    },
    handle: ({ deps, text }) => ({ data: setScenario(deps, text) }),
  }),
  defineRoute({
    operationId: 'addScenarioRules',
    method: 'post',
    path: '/scenario/rules',
    summary: 'Put rules in front of the active ones',
    tag: TAG,
    auth: { scheme: 'none' },
    body: overrideBody,
    example: {
      rules: [
        {
          on: 'transfer',
          match: { amount: { min: 100000000 } },
          effect: { fail: { errorCode: '91', errorMessage: 'Beneficiary Bank not available' } },
          times: 1,
        },
      ],
    },
    responses: {
      200: reply('Rules put in front of the active scenario', activeScenario),
      400: `More than ${MAX_OVERRIDES} rules in front of the scenario in all (\`DELETE /scenario\` clears them)`,
    },
    handle: ({ deps, body }) => ({ data: addRules(deps, body.rules) }),
  }),
  defineRoute({
    operationId: 'resetScenario',
    method: 'delete',
    path: '/scenario',
    summary: 'Back to the start-up scenario',
    tag: TAG,
    auth: { scheme: 'none' },
    responses: { 200: reply('Start-up scenario active', activeScenario) },
    handle: ({ deps }) => ({ data: resetScenario(deps) }),
  }),
];
