import { parseArgs } from 'node:util';
import { connectSandbox } from '../client/connect.js';
import type { SandboxHandle } from '../client/handle.js';
import { SandboxError, VerificationError } from '../errors.js';
import { type Command, UsageError, type Values } from './command.js';
import { journalCommands } from './journal-commands.js';
import { moneyCommands } from './money-commands.js';
import { sandboxesCommands } from './sandboxes-commands.js';
import { worldCommands } from './world-commands.js';

/** Where a command writes, and what it reads of its environment: the process's own, or a test's. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/** The default URL: the sandbox's own default address. */
export const DEFAULT_URL = 'http://127.0.0.1:4010';

/** Every command, in the order `--help` lists them. */
export const commands: Record<string, Command> = {
  reset: worldCommands.reset,
  drain: worldCommands.drain,
  pay: moneyCommands.pay,
  reverse: moneyCommands.reverse,
  refund: moneyCommands.refund,
  subscription: moneyCommands.subscription,
  'account-numbers': moneyCommands['account-numbers'],
  scenario: worldCommands.scenario,
  clock: worldCommands.clock,
  requests: journalCommands.requests,
  sandboxes: sandboxesCommands.sandboxes,
  drift: journalCommands.drift,
  verify: journalCommands.verify,
};

const COMMON_HELP = [
  '  --url URL           the sandbox (default: $SANDBOX_URL, else http://127.0.0.1:4010)',
  '  --token T           its --control-token (default: $SANDBOX_CONTROL_TOKEN)',
  '  --json              print the answer as JSON',
  '  --help              print this text',
];

/** The commands, for the top-level `--help`. */
export function commandsHelp(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length)) + 2;
  return [
    'Usage: banking-sandbox COMMAND [options] --url URL: drives a running sandbox (COMMAND --help for each)',
    '',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`),
    '',
    'Each takes --url URL (default: $SANDBOX_URL, else http://127.0.0.1:4010), --token T and --json; exit 0 on',
    'success, 1 with one line when the sandbox refuses or cannot be reached (verify adds the nearest requests',
    'under it), 2 on bad usage.',
    '',
  ].join('\n');
}

function helpOf(command: Command): string {
  return [
    `Usage: banking-sandbox ${command.usage} [--url URL] [--token T] [--json]`,
    '',
    ...command.help,
    ...COMMON_HELP,
    '',
  ].join('\n');
}

/** Whether `argv` starts with a command (`banking-sandbox drain …`) rather than the server's flags. */
export function isCommand(argv: readonly string[]): boolean {
  const [first] = argv;
  return first !== undefined && Object.hasOwn(commands, first);
}

/**
 * One line of a failure: a refusal's message, or why the sandbox could not be reached. A verification that does not
 * hold adds, under its line, the nearest requests and what each misses: what a CI log needs to see what was sent.
 */
function failureLine(error: unknown): string {
  if (error instanceof VerificationError) {
    const [first, ...nearest] = error.message.split('\n');
    return [`${first} (${error.count} matched, expected ${JSON.stringify(error.expected)})`, ...nearest].join(
      '\n',
    );
  }
  return (error as Error).message.split('\n')[0] ?? String(error);
}

/**
 * Runs one command (`argv` = `drain --url …`) against a sandbox and answers the exit code: 0 done, 1 the sandbox
 * refused or could not be reached, 2 bad usage. Writes its result to `io.stdout`, one line of failure to
 * `io.stderr`.
 */
export async function run(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name = '', ...args] = argv;
  const command = commands[name];
  if (!command) {
    io.stderr(`banking-sandbox: unknown command "${name}" (see --help)\n`);
    return 2;
  }
  try {
    let parsed: { values: Values; positionals: string[] };
    try {
      parsed = parseArgs({
        args: [...args],
        options: {
          ...command.options,
          url: { type: 'string' },
          token: { type: 'string' },
          json: { type: 'boolean' },
          help: { type: 'boolean' },
        },
        strict: true,
        allowPositionals: true,
      });
    } catch (error) {
      throw new UsageError((error as Error).message.split('\n')[0]);
    }
    const { values, positionals } = parsed;
    if (values.help) {
      io.stdout(helpOf(command));
      return 0;
    }
    if (!command.positionals && positionals.length > 0)
      throw new UsageError(`unexpected "${positionals.join(' ')}"`);
    const env = (key: string) => (io.env[key] === '' ? undefined : io.env[key]);
    const url = typeof values.url === 'string' ? values.url : (env('SANDBOX_URL') ?? DEFAULT_URL);
    const token = typeof values.token === 'string' ? values.token : env('SANDBOX_CONTROL_TOKEN');
    let sandbox: SandboxHandle;
    try {
      sandbox = connectSandbox(url, token === undefined ? {} : { controlToken: token });
    } catch (error) {
      throw new UsageError(`--url: ${(error as Error).message.replace(/^connectSandbox: /, '')}`);
    }
    const result = await command.run(sandbox, values, positionals);
    io.stdout(values.json ? `${JSON.stringify(result.json, null, 2)}\n` : `${result.line}\n`);
    return result.exitCode ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`banking-sandbox ${name}: ${error.message} (see banking-sandbox ${name} --help)\n`);
      return 2;
    }
    if (error instanceof SandboxError) {
      io.stderr(`banking-sandbox ${name}: ${failureLine(error)}\n`);
      return 1;
    }
    throw error;
  }
}
