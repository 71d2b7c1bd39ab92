import { describe, expect, it } from 'vitest';
import { ConfigError, helpText, parseCli, resolveConfig, settings } from '../../src/config.js';

const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const result = parseCli(argv, env);
  if (result.kind !== 'run') throw new Error(`expected run, got ${result.kind}`);
  return result.config;
};

describe('config', () => {
  it('has the documented defaults', () => {
    const config = resolveConfig();
    expect(config).toMatchObject({
      port: 4010,
      host: '127.0.0.1',
      data: '.sandbox/db.json',
      inMemory: false,
      seed: 1,
      tokenTtlSeconds: 3600,
      bodyLimitBytes: 1_048_576,
    });
    expect(config.controlToken).toBeUndefined();
  });

  it('reads flags, then the environment; flags win; empty variables count as unset', () => {
    expect(run([], { PORT: '5000', HOST: '0.0.0.0', SANDBOX_SEED: '9' })).toMatchObject({
      port: 5000,
      host: '0.0.0.0',
      seed: 9,
    });
    expect(run(['--port', '6000'], { PORT: '5000' }).port).toBe(6000);
    expect(run(['--in-memory']).inMemory).toBe(true);
    expect(run([], { SANDBOX_IN_MEMORY: 'true' }).inMemory).toBe(true);
    expect(run([], { SANDBOX_IN_MEMORY: '0' }).inMemory).toBe(false);
    expect(run([], { PORT: '' }).port).toBe(4010);
    expect(run(['--control-token', 't0k']).controlToken).toBe('t0k');
  });

  it.each([
    [['--port', 'abc'], /--port \(PORT\)/],
    [['--port', '70000'], /--port \(PORT\)/],
    [['--seed=-1'], /--seed \(SANDBOX_SEED\)/],
    [['--token-ttl', '0'], /--token-ttl/],
    [['--nope'], /Unknown option '--nope'/],
    [['extra'], /positional/i],
  ])('%j is refused with one clear line', (argv, message) => {
    expect(() => parseCli(argv, {})).toThrow(ConfigError);
    expect(() => parseCli(argv, {})).toThrow(message);
  });

  it('names the variable when the environment is wrong', () => {
    expect(() => parseCli([], { SANDBOX_IN_MEMORY: 'maybe' })).toThrow(/--in-memory \(SANDBOX_IN_MEMORY\)/);
  });

  it('--help and --version', () => {
    expect(parseCli(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseCli(['--version'], {})).toEqual({ kind: 'version' });
    const text = helpText();
    for (const s of Object.values(settings)) {
      expect(text).toContain(`--${s.flag}`);
      expect(text).toContain(s.env);
    }
  });
});
