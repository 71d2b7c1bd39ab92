#!/usr/bin/env node
import { banner } from './banner.js';
import { commandsHelp, isCommand, run } from './cli/commands.js';
import { ConfigError, helpText, parseCli } from './config.js';
import { batchedWriter } from './http/request-log.js';
import { type RunningSandbox, startSandbox, version } from './sandbox.js';
import { ScenarioError } from './scenarios/library.js';
import { FixtureError } from './store/fixtures.js';
import { StateFileInUseError, StateLockPathError } from './store/write-error.js';

/** Exits 2 with one line: the settings or fixtures are wrong. */
function usageError(message: string): never {
  process.stderr.write(`banking-sandbox: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  // `banking-sandbox drain --url …`: a command against a running sandbox, not a server of its own.
  if (isCommand(process.argv.slice(2))) {
    process.exitCode = await run(process.argv.slice(2), {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      env: process.env,
    });
    return;
  }
  let cli: ReturnType<typeof parseCli>;
  try {
    cli = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof ConfigError) usageError(error.message);
    throw error;
  }
  if (cli.kind === 'help') return void process.stdout.write(`${helpText()}\n${commandsHelp()}`);
  if (cli.kind === 'version') return void process.stdout.write(`${version}\n`);

  // Handlers go in before anything listens, so a signal at any moment after start-up is a clean stop.
  let sandbox: RunningSandbox | undefined;
  let stopping = false;
  /** Stops serving, flushes the store and exits with `code`; `signal` is said on standard error when given. */
  const stop = (signal: string | null, code = 0) => {
    if (stopping) return;
    stopping = true;
    if (signal) process.stderr.write(`banking-sandbox: ${signal}, stopping\n`);
    // The store is flushed before exit; past 2 s something is stuck, and we leave anyway.
    setTimeout(() => process.exit(1), 2000).unref();
    (sandbox ? sandbox.close() : Promise.resolve()).then(
      () => process.exit(code),
      (error: unknown) => {
        process.stderr.write(`banking-sandbox: error while stopping: ${error}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  // One ordered log on standard output, in --log-format: the banner, request lines, background work and
  // operational lines. Standard error keeps text for what ends the process (bad settings, a failed start, a signal).
  const out = batchedWriter((chunk) => process.stdout.write(chunk));
  // The seed and the fixtures folder go to the sandbox only when given: a state file it keeps makes them not apply,
  // and it says so at start-up, of what was asked for, never of a default. Left out, they take the same defaults.
  const { seed, fixtures, ...settings } = cli.config;
  const given = {
    ...(cli.given.includes('seed') ? { seed } : {}),
    ...(cli.given.includes('fixtures') ? { fixtures } : {}),
  };
  try {
    sandbox = await startSandbox({ ...settings, ...given, log: out });
  } catch (error) {
    if (error instanceof FixtureError || error instanceof ConfigError || error instanceof ScenarioError) {
      usageError(error.message);
    }
    if (error instanceof StateFileInUseError) {
      usageError(`${error.message}; stop that process, or give this one another --data file`);
    }
    if (error instanceof StateLockPathError) {
      usageError(`${error.message}; remove it, or give this sandbox another --data file`);
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') usageError(`port ${cli.config.port} on ${cli.config.host} is already in use`);
    process.stderr.write(`banking-sandbox: cannot start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  out(banner(sandbox).replace(/\n$/, ''));
  // Another process has the state file now (the log says so, once): this one must write nothing more, so it stops,
  // answering what is in flight with 503, and exits 1 for its supervisor to see.
  void sandbox.store.whenTakenOver().then(() => stop(null, 1));
}

main().catch((error: unknown) => {
  process.stderr.write(`banking-sandbox: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
