import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { run as runCommand } from '../../src/cli/commands.js';
import { signIn } from '../../src/contract/api/auth.js';
import { dataOf } from './answers.js';
import { A } from './sandbox.js';

const MAIN = join(import.meta.dirname, '..', '..', 'dist', 'main.js');

export interface SandboxProcess {
  child: ChildProcess;
  /** Base URL, read from the banner. */
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or the signal) once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `command ARGS` to its end, with its output as text. */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    // 'close', not 'exit': the process can be gone before its last output has been read.
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `node ARGS` (this node) to its end. */
export function runNode(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return run(process.execPath, args, options);
}

/** Runs the built CLI (`node dist/main.js ARGS`) to its end. */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return runNode([MAIN, ...args], options);
}

/**
 * Starts the CLI on a free port and resolves once its banner says it listens. `prefix` is a command that runs it
 * (`['unshare', '-p', '-f', '--mount-proc']`: in a PID namespace of its own); `child` is then that command's process.
 */
export function startProcess(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; prefix?: string[] } = {},
) {
  const [command = process.execPath, ...prefixArgs] = [...(options.prefix ?? []), process.execPath];
  return new Promise<SandboxProcess>((resolve, reject) => {
    const child = spawn(command, [...prefixArgs, MAIN, '--port', '0', ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
    });
    let out = '';
    let err = '';
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on('exit', (code, signal) => done({ code, signal })),
    );
    child.stderr.on('data', (d: Buffer) => {
      err += d;
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/[^\s"]+)\/api\/v1/.exec(out);
      if (m?.[1]) {
        resolve({ child, url: m[1], stdout: () => out, stderr: () => err, exited });
      }
    });
    void exited.then(({ code }) => reject(new Error(`sandbox exited (${code}) before listening: ${err}`)));
  });
}

/** Resolves once the process's standard output matches `pattern` (log lines arrive a moment after the answer). */
export function waitForOutput(p: SandboxProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const check = () => {
      const m = pattern.exec(p.stdout());
      if (!m) return false;
      p.child.stdout?.off('data', check);
      resolve(m[0]);
      return true;
    };
    if (!check()) p.child.stdout?.on('data', check);
  });
}

/** Stops the process with a signal and waits for it to go. */
export async function stop(p: SandboxProcess, signal: NodeJS.Signals = 'SIGTERM') {
  p.child.kill(signal);
  return p.exited;
}

/** Scheme A headers of client A's owner on business A1, signed in afresh on the process. */
export async function ownerHeadersOf(p: SandboxProcess): Promise<Record<string, string>> {
  const res = await http(p, 'POST', '/api/v1/auth/signin', {
    body: { email: A.owner.email, password: A.owner.password },
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${JSON.stringify(res.body)}`);
  const token = dataOf(res, signIn).accessToken;
  return { authorization: `Bearer ${token}`, SECRET_KEY: A.secretKey, businessId: A.a1.id };
}

/** JSON over HTTP to the process. */
export async function http(
  p: SandboxProcess,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
) {
  const res = await fetch(p.url + path, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  // An event stream (the dashboard's feed) never ends by itself: its status is the answer.
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: {} as Record<string, unknown> & { data?: unknown } };
  }
  const text = await res.text();
  return {
    status: res.status,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown> & { data?: unknown },
  };
}

/**
 * A shell command of the CLI (`drain --timeout 10`, `sandboxes create`), run in this process through `run(argv, io)`
 * with `env` as its environment (the sandbox's URL, its token): answers its exit code and what it wrote.
 */
export async function shellCommand(env: NodeJS.ProcessEnv, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCommand(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
  });
  return { code, stdout, stderr };
}
