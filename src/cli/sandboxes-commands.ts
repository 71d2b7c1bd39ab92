import { newSandboxBody } from '../contract/control/sandboxes.js';
import { bodyFlags } from './body-flags.js';
import { type Command, type Options, UsageError } from './command.js';

const sandboxFlags = bodyFlags(newSandboxBody, { id: {}, replace: {}, seed: {}, scenario: {}, clock: {} });

/** The command that creates, lists and deletes isolated sandboxes. */
export const sandboxesCommands = {
  sandboxes: {
    usage:
      'sandboxes [list] | create [--id ID] [--replace] [--seed N] [--scenario NAME] [--clock ISO] | delete ID',
    summary: 'list, create or delete isolated sandboxes',
    help: [
      'Isolated sandboxes: worlds of their own in the running process, each answering the bank API at',
      '/sandboxes/{id}/api/v1 and its control API at /sandboxes/{id}/__sandbox. Every other command drives one',
      'with --url URL/sandboxes/ID.',
      '  list                every isolated sandbox (GET /__sandbox/sandboxes); the default',
      '  create              a new one (POST /__sandbox/sandboxes); prints its id and apiUrl',
      '    --id ID           its id: lowercase letters, digits and dashes (default: one is made)',
      '    --replace         with --id: a sandbox of that id is deleted first (a rerun after a killed run)',
      "    --seed N          the seed of its fixtures (default: the process's)",
      "    --scenario NAME   its start-up scenario (default: the process's)",
      '    --clock ISO       a time its clock starts frozen at (default: real time, running)',
      '  delete ID           delete it, with its queued work (DELETE /__sandbox/sandboxes/{id})',
    ],
    get options(): Options {
      return sandboxFlags.options;
    },
    positionals: true,
    run: async (sandbox, values, positionals) => {
      const [action = 'list', ...rest] = positionals;
      const given = Object.keys(sandboxFlags.options).filter((k) => values[k] !== undefined);
      if (action !== 'create' && given.length > 0)
        throw new UsageError(`--${given[0]} goes with sandboxes create only`);
      if (action === 'list') {
        if (rest.length > 0) throw new UsageError(`unexpected "${rest.join(' ')}"`);
        const all = await sandbox.sandboxes.list();
        const lines = all.map(
          (s) => `${s.id}  created ${s.createdAt}  last used ${s.lastUsedAt}  ${s.requests} request(s)`,
        );
        return { line: lines.length > 0 ? lines.join('\n') : 'No isolated sandbox', json: all };
      }
      if (action === 'create') {
        if (rest.length > 0) throw new UsageError(`unexpected "${rest.join(' ')}"`);
        const made = await sandbox.isolate(sandboxFlags.read(values));
        return {
          line: `Sandbox ${made.id} created: point the app at ${made.apiUrl}`,
          json: { id: made.id, apiUrl: made.apiUrl, url: made.url },
        };
      }
      if (action === 'delete') {
        const [id, ...more] = rest;
        if (id === undefined) throw new UsageError('sandboxes delete takes the id of the sandbox');
        if (more.length > 0) throw new UsageError(`one sandbox at a time, not "${more.join(' ')}" too`);
        await sandbox.sandboxes.delete(id);
        return { line: `Sandbox ${id} deleted`, json: { deleted: id } };
      }
      throw new UsageError(`sandboxes takes list, create or delete ID, not "${action}"`);
    },
  },
} satisfies Record<string, Command>;
