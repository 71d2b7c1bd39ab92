import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type Config,
  ConfigError,
  type ConfigInput,
  helpText,
  MAX_LIFETIME_SECONDS,
  MAX_TIMER_MS,
  nearestOption,
  parseCli,
  resolveConfig,
  settings,
} from '../../src/config.js';
import { retryDelayMs } from '../../src/domain/backoff.js';
import { SandboxError } from '../../src/errors.js';

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
      tokenTtl: 3600,
      bodyLimit: 1_048_576,
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

  // The largest value each time setting accepted before made its arithmetic leave a Date or a timer.
  it.each([
    [['--token-ttl', String(Number.MAX_SAFE_INTEGER)], /--token-ttl \(SANDBOX_TOKEN_TTL\)/],
    [['--secret-grace', String(Number.MAX_SAFE_INTEGER)], /--secret-grace \(SANDBOX_SECRET_GRACE\)/],
    [['--invitation-ttl', String(Number.MAX_SAFE_INTEGER)], /--invitation-ttl \(SANDBOX_INVITATION_TTL\)/],
    [
      ['--virtual-account-ttl', String(Number.MAX_SAFE_INTEGER)],
      /--virtual-account-ttl \(SANDBOX_VIRTUAL_ACCOUNT_TTL\)/,
    ],
    [['--virtual-account-ttl', String(MAX_LIFETIME_SECONDS + 1)], /--virtual-account-ttl/],
    [['--webhook-timeout', String(MAX_TIMER_MS)], /--webhook-timeout \(SANDBOX_WEBHOOK_TIMEOUT\)/],
    [['--webhook-retry-base', String(MAX_TIMER_MS)], /--webhook-retry-base \(SANDBOX_WEBHOOK_RETRY_BASE\)/],
    [['--webhook-retry-factor', '1000'], /--webhook-retry-factor \(SANDBOX_WEBHOOK_RETRY_FACTOR\)/],
    [['--webhook-attempts', '1000'], /--webhook-attempts \(SANDBOX_WEBHOOK_ATTEMPTS\)/],
    [
      ['--webhook-attempts', '100'],
      /--webhook-attempts \(SANDBOX_WEBHOOK_ATTEMPTS\): .*more than a timer holds/,
    ],
    [
      ['--webhook-retry-factor', '100', '--webhook-retry-base', '3600000', '--webhook-attempts', '4'],
      /--webhook-attempts .*retry 3 would wait/,
    ],
    [['--bulk-item-delay', String(MAX_TIMER_MS)], /--bulk-item-delay \(SANDBOX_BULK_ITEM_DELAY\)/],
  ])('time setting %j whose arithmetic would overflow is refused, naming it', (argv, message) => {
    expect(() => parseCli(argv, {})).toThrow(ConfigError);
    expect(() => parseCli(argv, {})).toThrow(message);
    expect(() => parseCli(argv, {})).not.toThrow(/\n/);
  });

  it('the largest accepted time settings stay inside a Date and a timer', () => {
    const config = run([
      '--token-ttl',
      String(MAX_LIFETIME_SECONDS),
      '--secret-grace',
      String(MAX_LIFETIME_SECONDS),
      '--invitation-ttl',
      String(MAX_LIFETIME_SECONDS),
      '--virtual-account-ttl',
      String(MAX_LIFETIME_SECONDS),
      '--webhook-retry-base',
      '3600000',
      '--webhook-retry-factor',
      '1',
      '--webhook-attempts',
      '100',
    ]);
    // Even a clock moved a thousand years ahead stamps a valid expiry.
    const later = Date.now() + 1000 * 365 * 86_400_000;
    for (const seconds of [
      config.tokenTtl,
      config.secretGrace,
      config.invitationTtl,
      config.virtualAccountTtl,
    ]) {
      expect(new Date(later + seconds * 1000).toISOString()).toMatch(/Z$/);
    }
    const longest = retryDelayMs(
      config.webhookAttempts - 1,
      config.webhookRetryBase,
      config.webhookRetryFactor,
    );
    expect(longest).toBeLessThanOrEqual(MAX_TIMER_MS);
  });

  it('--webhook-concurrency: 4 unless set, from the flag or the variable, a whole number from 1 to 100', () => {
    expect(resolveConfig().webhookConcurrency).toBe(4);
    expect(run(['--webhook-concurrency', '1']).webhookConcurrency).toBe(1);
    expect(run([], { SANDBOX_WEBHOOK_CONCURRENCY: '100' }).webhookConcurrency).toBe(100);
    expect(run(['--webhook-concurrency=2'], { SANDBOX_WEBHOOK_CONCURRENCY: '8' }).webhookConcurrency).toBe(2);
    for (const bad of ['0', '-1', '101', '1.5', 'two', ' ']) {
      expect(() => parseCli([`--webhook-concurrency=${bad}`], {})).toThrow(
        /^invalid setting --webhook-concurrency \(SANDBOX_WEBHOOK_CONCURRENCY\): /,
      );
      expect(() => parseCli([], { SANDBOX_WEBHOOK_CONCURRENCY: bad })).toThrow(ConfigError);
    }
    expect(() => resolveConfig({ webhookConcurrency: 0 })).toThrow(/^invalid option webhookConcurrency: /);
  });

  it('--upstream-max-body: 16 MiB unless set, from the flag or the variable, 1 to the longest string', () => {
    expect(resolveConfig().upstreamMaxBody).toBe(16 * 1_048_576);
    expect(run(['--upstream-max-body', '1']).upstreamMaxBody).toBe(1);
    expect(run([], { SANDBOX_UPSTREAM_MAX_BODY: '536870888' }).upstreamMaxBody).toBe(536_870_888);
    for (const bad of ['0', '-1', '536870889', '1.5', 'lots']) {
      expect(() => parseCli([`--upstream-max-body=${bad}`], {})).toThrow(
        /^invalid setting --upstream-max-body \(SANDBOX_UPSTREAM_MAX_BODY\): /,
      );
    }
  });

  it.each([
    'https://bankUser42:S3cretPassw0rd@bank.example/api/v1',
    'https://bankUser42@bank.example/api/v1',
    'https://:S3cretPassw0rd@bank.example/api/v1',
  ])('--upstream %s: refused, naming the setting, never repeating the URL', (upstream) => {
    const refusals = [
      [() => resolveConfig({ upstream }), 'invalid option upstream'],
      [() => parseCli(['--upstream', upstream], {}), 'invalid setting --upstream (SANDBOX_UPSTREAM)'],
      [() => parseCli([], { SANDBOX_UPSTREAM: upstream }), 'invalid setting --upstream (SANDBOX_UPSTREAM)'],
    ] as const;
    for (const [attempt, named] of refusals) {
      const error = (() => {
        try {
          attempt();
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toBe(
        `${named}: must not hold a user or a password: credentials belong in headers, which the app sends and the sandbox forwards as they are`,
      );
    }
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

  it('names every setting in code as the camelCase of its flag', () => {
    for (const [key, s] of Object.entries(settings)) {
      expect(key).toBe(s.flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));
    }
  });

  it('the options type of code is the settings: same names, same value types, all optional', () => {
    // Checked by the typecheck: a setting added without its documented option (or the reverse) fails here.
    type Plain<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };
    expectTypeOf<Plain<ConfigInput>>().toEqualTypeOf<Plain<Config>>();
    expectTypeOf<Partial<ConfigInput>>().toEqualTypeOf<ConfigInput>();
    expect(
      Object.keys(
        resolveConfig({ controlToken: 't', upstream: 'https://bank.example/api/v1', record: 'run.json' }),
      ).sort(),
    ).toEqual(Object.keys(settings).sort());
  });

  it('in code, names the option as code spells it; on the CLI, the flag and its variable', () => {
    const fromCode = () => resolveConfig({ bulkItemDelay: -1 });
    expect(fromCode).toThrow(ConfigError);
    expect(fromCode).toThrow(/^invalid option bulkItemDelay: /);
    expect(() => resolveConfig({ webhookAttempts: 100 })).toThrow(
      /^invalid option webhookAttempts: .*more than a timer holds/,
    );
    expect(() => parseCli(['--bulk-item-delay=-1'], {})).toThrow(
      /^invalid setting --bulk-item-delay \(SANDBOX_BULK_ITEM_DELAY\): /,
    );
    expect(() => parseCli([], { SANDBOX_BULK_ITEM_DELAY: '-1' })).toThrow(
      /^invalid setting --bulk-item-delay \(SANDBOX_BULK_ITEM_DELAY\): /,
    );
  });

  it('refuses an option no setting has, as plain JavaScript would pass it, suggesting the nearest name', () => {
    const misspelt = { bulkItemDelayMs: 5 } as ConfigInput;
    const error = (() => {
      try {
        resolveConfig(misspelt);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({
      name: 'ConfigError',
      status: 400,
      message: 'unknown option bulkItemDelayMs: did you mean bulkItemDelay?',
    });
    expect(() => resolveConfig({ frobnicate: true } as ConfigInput)).toThrow(
      /^unknown option frobnicate: options are the flags of --help in camelCase/,
    );
    // Refused even when its value is undefined: the name is what is wrong.
    expect(() => resolveConfig({ tokenTTL: undefined } as ConfigInput)).toThrow(/did you mean tokenTtl\?/);
  });

  it.each([
    ['bulkItemDelayMs', 'bulkItemDelay'],
    ['importLimitBytes', 'importLimit'],
    ['tokenTtlSeconds', 'tokenTtl'],
    ['bulk-item-delay', 'bulkItemDelay'],
    ['webhookRetries', undefined],
    ['controltoken', 'controlToken'],
    ['prot', 'port'],
    ['verbose', undefined],
    ['log', undefined],
    ['quite', 'quiet'],
  ])('suggests for %s: %s', (name, near) => {
    expect(nearestOption(name)).toBe(near);
  });
});
