import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { redactHeader } from '../../src/domain/redact.js';
import { curlCommand, secretVariable, shellQuote } from '../../src/http/curl.js';

const URL = 'http://127.0.0.1:4010/api/v1/clients/business/customers/funds/transfer';

/** The headers as the journal shows them: each credential redacted. */
const shown = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, redactHeader(name, value)]));

/** The words a POSIX shell makes of `command` (after `curl`), with `env` set: what curl would be given. */
function wordsOf(command: string, env: Record<string, string> = {}): string[] {
  const script = `set -- ${command.replace(/^curl /, '')}; for w in "$@"; do printf '%s\\0' "$w"; done`;
  const out = execFileSync('/bin/sh', ['-c', script], { env: { PATH: process.env.PATH, ...env } });
  return out.toString('utf8').split('\0').slice(0, -1);
}

describe('shellQuote', () => {
  it.each([
    ['plain', "'plain'"],
    ['', "''"],
    ["it's", "'it'\\''s'"],
    ["''", "''\\'''\\'''"],
    ['$HOME `ls` "x" \\n', `'$HOME \`ls\` "x" \\n'`],
  ])('%j → %s, which the shell reads back as it was', (text, quoted) => {
    expect(shellQuote(text)).toBe(quoted);
    expect(wordsOf(`curl ${quoted}`)).toEqual([text]);
  });
});

describe('secretVariable', () => {
  it.each([
    ['secret_key', 'SECRET_KEY'],
    ['authorization', 'AUTHORIZATION'],
    ['x-api-secret', 'X_API_SECRET'],
    ['x-sandbox-token', 'X_SANDBOX_TOKEN'],
    ['auth-key', 'AUTH_KEY'],
    ['1-token', '_1_TOKEN'],
    ['x.secret!', 'X_SECRET_'],
  ])('%s → %s', (header, variable) => expect(secretVariable(header)).toBe(variable));
});

describe('curlCommand', () => {
  it('a POST with a JSON body: every word single-quoted, credentials as shell variables', () => {
    const headers = shown({
      host: '127.0.0.1:4010',
      'content-type': 'application/json',
      'content-length': '42',
      authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.payload.signature',
      secret_key: 'sk_test_abcdefghijklmnop',
      businessid: 'b-1',
      'x-api-key': 'pk_test_public',
      connection: 'keep-alive',
      'accept-encoding': 'gzip',
    });
    const command = curlCommand({ method: 'POST', url: URL, headers, body: '{"amount":1000}' });
    expect(command).toBe(
      `curl -X POST '${URL}' -H 'content-type: application/json' -H 'authorization: Bearer '"$AUTHORIZATION" -H 'secret_key: '"$SECRET_KEY" -H 'businessid: b-1' -H 'x-api-key: pk_test_public' --data-raw '{"amount":1000}'`,
    );
    expect(command).not.toContain('****');
  });

  it('what the shell gives curl: the secrets from the environment, the rest as recorded', () => {
    const headers = shown({ authorization: 'Basic dXNlcjpwYXNz', 'x-api-secret': 'sk_real_secret_1234' });
    const body = `{"narration":"it's \\"quoted\\" $HOME \`x\`"}`;
    const command = curlCommand({ method: 'PATCH', url: `${URL}?a=1&b=it's`, headers, body });
    expect(wordsOf(command, { AUTHORIZATION: 'dXNlcjpwYXNz', X_API_SECRET: 'sk_real_secret_1234' })).toEqual([
      '-X',
      'PATCH',
      `${URL}?a=1&b=it's`,
      '-H',
      'authorization: Basic dXNlcjpwYXNz',
      '-H',
      'x-api-secret: sk_real_secret_1234',
      '--data-raw',
      body,
    ]);
  });

  it('no body: no --data-raw; the query string stays in the URL', () => {
    expect(curlCommand({ method: 'GET', url: `${URL}?page=2&limit=5`, headers: {}, body: null })).toBe(
      `curl -X GET '${URL}?page=2&limit=5'`,
    );
  });

  it('a credential without a scheme word, or whose name holds a shell character', () => {
    const headers = shown({ authorization: 'rawtokenwithoutscheme', 'x-$secret': 'value-of-it' });
    expect(curlCommand({ method: 'GET', url: URL, headers, body: null })).toBe(
      `curl -X GET '${URL}' -H 'authorization: '"$AUTHORIZATION" -H 'x-$secret: '"$X__SECRET"`,
    );
  });

  // A `!` inside double quotes is history expansion in interactive bash; `$`, `` ` `` and `\` are expanded by any
  // shell. So nothing recorded may sit in double quotes: only the variable does.
  it('a name and scheme holding ! $ ` " \' are single-quoted; only the variable is outside', () => {
    const name = 'x-!$`"\'-secret';
    const scheme = '!!$HOME`id`"\'';
    const headers = { authorization: `${scheme} ****abcd`, [name]: '****wxyz' };
    const command = curlCommand({ method: 'GET', url: URL, headers, body: null });
    // Left of each variable only single-quoted runs and `\'`: with those taken out, nothing but the variables.
    expect(command.replaceAll(/'[^']*'|\\'/g, '')).toBe(
      'curl -X GET  -H "$AUTHORIZATION" -H "$X_______SECRET"',
    );
    // What the shell hands curl: `curl` replaced by a function that prints its arguments.
    const script = `curl() { for w in "$@"; do printf '%s\\0' "$w"; done; }; ${command}`;
    const out = execFileSync('/bin/sh', ['-c', script], {
      env: { PATH: process.env.PATH, HOME: '/nowhere', AUTHORIZATION: 'tok$en!', X_______SECRET: 's`e"c' },
    });
    expect(out.toString('utf8').split('\0').slice(0, -1)).toEqual([
      '-X',
      'GET',
      URL,
      '-H',
      `authorization: ${scheme} tok$en!`,
      '-H',
      `${name}: s\`e"c`,
    ]);
  });

  it('a multi-line JSON body stays on one line, the same JSON', () => {
    const body = '{\r\n  "a": 1,\n  "b": [2, 3]\r}';
    const command = curlCommand({ method: 'POST', url: URL, headers: {}, body });
    expect(command).not.toMatch(/[\r\n]/);
    expect(JSON.parse(wordsOf(command).at(-1) ?? '')).toEqual(JSON.parse(body));
  });

  it('HEAD as --head; a URL with brackets gets --globoff; an odd method is quoted', () => {
    expect(curlCommand({ method: 'HEAD', url: URL, headers: {}, body: null })).toBe(`curl --head '${URL}'`);
    expect(curlCommand({ method: 'GET', url: `${URL}?a[0]=1`, headers: {}, body: null })).toBe(
      `curl -X GET --globoff '${URL}?a[0]=1'`,
    );
    expect(curlCommand({ method: "X'Y", url: URL, headers: {}, body: null })).toBe(
      `curl -X 'X'\\''Y' '${URL}'`,
    );
  });

  it('leaves out every connection header and the ones curl computes', () => {
    const left = [
      'host',
      'content-length',
      'connection',
      'transfer-encoding',
      'accept-encoding',
      'keep-alive',
      'te',
      'upgrade',
      'expect',
    ];
    const headers = Object.fromEntries(left.map((name) => [name, 'x']));
    expect(curlCommand({ method: 'GET', url: URL, headers, body: null })).toBe(`curl -X GET '${URL}'`);
  });
});
