import * as z from 'zod';
import { lazy } from '../../http/route.js';
import { scenario, scenarioName, scenarioRule } from '../../scenarios/schema.js';

// The failure rules in force, and the ready scenarios to choose from.

export const overrideBody = z.object({ rules: z.array(scenarioRule).min(1).max(200) });

/** `PUT /scenario` by name: a ready scenario. */
export const scenarioByName = z.object({ name: scenarioName }).strict();

/** What `PUT /scenario` takes: the name of a ready scenario, or a whole scenario object. */
export const scenarioChoice = z.union([scenarioByName, scenario]);

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
