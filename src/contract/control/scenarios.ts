import * as z from 'zod';
import { contract, deferred, lazy, reply } from '../kit.js';
import { scenario, scenarioName, scenarioRule } from '../scenarios.js';

// The failure rules in force, and the ready scenarios to choose from.

/**
 * The most rules put in front of a scenario at once: every transfer, item, attempt and request is matched against
 * them, and `GET /__sandbox/scenario` answers them all, so they must not grow without end (a test that adds rules
 * in each of its cases and never clears them).
 */
export const MAX_OVERRIDES = 1000;

export const overrideBody = deferred(() => z.object({ rules: z.array(scenarioRule).min(1).max(200) }));

/** `PUT /scenario` by name: a ready scenario. */
export const scenarioByName = deferred(() => z.object({ name: scenarioName }).strict());

/** What `PUT /scenario` takes: the name of a ready scenario, or a whole scenario object. */
export const scenarioChoice = deferred(() => z.union([scenarioByName(), scenario]));

// What the routes answer.

export const activeScenario = lazy('ActiveScenario', () =>
  z.strictObject({
    startup: z.string().describe('the start-up scenario, which a reset brings back'),
    name: z.string(),
    description: z.string(),
    seed: z.number().int(),
    overrides: z.array(scenarioRule).describe('rules put in front of the scenario’s own, newest first'),
    rules: z.array(scenarioRule).describe('every rule in force, overrides first'),
  }),
);
export type ActiveScenarioView = z.infer<ReturnType<typeof activeScenario>>;

export const readyScenarios = lazy('ReadyScenarios', () =>
  z.array(z.strictObject({ name: z.string(), description: z.string() })),
);
export type ReadyScenariosView = z.infer<ReturnType<typeof readyScenarios>>;

const TAG = 'Scenarios';

export const getScenarioContract = contract({
  operationId: 'getScenario',
  method: 'get',
  path: '/scenario',
  summary: 'The active scenario',
  description: 'The start-up and active scenario, the overrides and the rules in force.',
  tag: TAG,
  auth: { scheme: 'none' },
  responses: { 200: reply('Active scenario', activeScenario) },
});

export const listScenariosContract = contract({
  operationId: 'listScenarios',
  method: 'get',
  path: '/scenarios',
  summary: 'Ready scenarios',
  description:
    "The scenarios of the sandbox's `scenarios/` folder, by name, with their descriptions: what `PUT /scenario {name}` and `x-sandbox-scenario` take.",
  tag: TAG,
  auth: { scheme: 'none' },
  responses: { 200: reply('Ready scenarios', readyScenarios) },
});

export const setScenarioContract = contract({
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
    404: '`No ready scenario named "flakey-bank" (did you mean "flaky-bank"? ready: default, …)`: the ready scenarios, and the one meant when a ready name is near enough',
  },
});

export const addScenarioRulesContract = contract({
  operationId: 'addScenarioRules',
  method: 'post',
  path: '/scenario/rules',
  summary: 'Put rules in front of the active ones',
  description:
    "Rules matched before the active scenario's, first matching rule wins; they stay until `DELETE /scenario` or a new scenario. At most 1000 in all.",
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
});

export const resetScenarioContract = contract({
  operationId: 'resetScenario',
  method: 'delete',
  path: '/scenario',
  summary: 'Back to the start-up scenario',
  description:
    'Clears the rules put in front of the scenario and makes the scenario the sandbox started with active again.',
  tag: TAG,
  auth: { scheme: 'none' },
  responses: { 200: reply('Start-up scenario active', activeScenario) },
});
