import { readFile } from 'node:fs/promises';
import type { SandboxHandle } from '../client/handle.js';
import { drainQuery } from '../contract/control/sandbox.js';
import { SandboxError } from '../errors.js';
import { bodyFlags } from './body-flags.js';
import { type Command, type Options, UsageError, wholeNumber } from './command.js';

const drainFlags = bodyFlags(drainQuery, { timeout: { field: 'timeoutMs', min: 1 } });

function clockLine(c: { now: string; frozen: boolean; offsetMs: number }): string {
  return `${c.now} (${c.frozen ? 'frozen' : 'running'}, ${c.offsetMs} ms from real time)`;
}

/** The commands that act on the world itself: reset it, wait for its queues, its scenario and its clock. */
export const worldCommands = {
  reset: {
    usage: 'reset [--keep-requests]',
    summary: 'put the state back to the fixtures',
    help: [
      'The state, the scenario and the clock back to how the sandbox started, the request journal emptied',
      '(POST /__sandbox/reset).',
      '  --keep-requests     keep the request journal',
    ],
    options: { 'keep-requests': { type: 'boolean' } },
    run: async (sandbox, values) => {
      await sandbox.reset({ keepRequests: values['keep-requests'] === true });
      return { line: 'Sandbox reset to the fixtures', json: { reset: true } };
    },
  },
  drain: {
    usage: 'drain [--timeout MS]',
    summary: 'wait until batches and webhooks are settled',
    help: [
      'Waits until the bulk and webhook queues are idle and every change is on disk (POST /__sandbox/drain).',
      '  --timeout MS        give up after MS milliseconds (default 30000), naming what is still waiting: exit 1',
    ],
    get options(): Options {
      return drainFlags.options;
    },
    run: async (sandbox, values) => {
      await sandbox.drain(drainFlags.read(values));
      return { line: 'Queues are idle', json: { idle: true } };
    },
  },
  scenario: {
    usage: 'scenario NAME | FILE | --clear',
    summary: 'make a scenario active',
    help: [
      'Makes a ready scenario (by name) or a scenario file the active one (PUT /__sandbox/scenario).',
      '  NAME                a ready scenario: flaky-bank, provider-outage, … (GET /__sandbox/scenarios)',
      '  FILE                a scenario as JSON: a path ending in .json or holding a /',
      '  --clear             back to the start-up scenario (DELETE /__sandbox/scenario)',
    ],
    options: { clear: { type: 'boolean' } },
    positionals: true,
    run: async (sandbox, values, positionals) => {
      const [chosen, ...rest] = positionals;
      if (values.clear) {
        if (chosen !== undefined) throw new UsageError('give a scenario or --clear, not both');
        await sandbox.setScenario(null);
        return { line: 'Start-up scenario active', json: { scenario: null } };
      }
      if (chosen === undefined) throw new UsageError('give a scenario NAME or FILE, or --clear');
      if (rest.length > 0) throw new UsageError(`one scenario at a time, not "${rest.join(' ')}" too`);
      if (chosen.endsWith('.json') || chosen.includes('/')) {
        let text: string;
        try {
          text = await readFile(chosen, 'utf8');
        } catch (error) {
          throw new SandboxError(
            `cannot read ${chosen}: ${(error as NodeJS.ErrnoException).code ?? error}`,
            400,
          );
        }
        let scenario: unknown;
        try {
          scenario = JSON.parse(text);
        } catch {
          throw new SandboxError(`${chosen} is not JSON`, 400);
        }
        await sandbox.setScenario(scenario as Parameters<SandboxHandle['setScenario']>[0]);
        const name = (scenario as { name?: unknown }).name;
        return { line: `Scenario ${String(name)} active (from ${chosen})`, json: { scenario: name } };
      }
      await sandbox.setScenario(chosen);
      return { line: `Scenario ${chosen} active`, json: { scenario: chosen } };
    },
  },
  clock: {
    usage: 'clock advance MS | freeze | unfreeze | show',
    summary: 'move, stop, run or show the virtual clock',
    help: [
      '  advance MS          move the clock MS milliseconds on, running what comes due (POST /__sandbox/clock/advance)',
      '  freeze              stop the clock where it stands',
      '  unfreeze            let it run again from there',
      '  show                where it stands (GET /__sandbox/clock)',
    ],
    options: {},
    positionals: true,
    run: async (sandbox, _values, positionals) => {
      const [action, ms, ...rest] = positionals;
      const extra = action === 'advance' ? rest : ms === undefined ? rest : [ms, ...rest];
      if (extra.length > 0) throw new UsageError(`unexpected "${extra.join(' ')}"`);
      if (action === 'advance') await sandbox.clock.advance(wholeNumber(ms, 'clock advance MS', 1));
      else if (action === 'freeze') await sandbox.clock.freeze(true);
      else if (action === 'unfreeze') await sandbox.clock.freeze(false);
      else if (action !== 'show')
        throw new UsageError(
          `clock takes advance MS, freeze, unfreeze or show${action === undefined ? '' : `, not "${action}"`}`,
        );
      const now = await sandbox.clock.get();
      return { line: `Clock at ${clockLine(now)}`, json: now };
    },
  },
} satisfies Record<string, Command>;
