// Part `webhooks`: one client's receiver hangs on a delivery while its other deliveries are retried; their
// retries must keep to the backoff schedule, not wait behind the hanging one.
import http from 'node:http';
import { join } from 'node:path';
import { type Launch, listenForHooks, ours, startServer, stopServer } from '../processes.js';
import { isRecord, requestJson, schemeA, signIn } from '../sandbox-client.js';
import { log } from '../settings.js';
import { ms, type Row, ratio, verdict } from '../table.js';

const HOOK_RETRY_BASE_MS = 200;
const HOOK_TIMEOUT_MS = 2000;
const HOOK_ATTEMPTS = 4;
const HOOK_FAST_DELIVERIES = 5;
/** The waits between attempts the sandbox is told to keep: 200, 400, 800 ms. */
const HOOK_SCHEDULE = Array.from({ length: HOOK_ATTEMPTS - 1 }, (_, i) => HOOK_RETRY_BASE_MS * 2 ** i);

interface HookRun {
  /**
   * The other deliveries' waits from the end of a failed attempt to the start of the next (what the backoff sets),
   * per retry, worst over the deliveries.
   */
  worstWaits: number[];
  /** The same from start to start, which adds the failed attempt's own duration. */
  worstGaps: number[];
  /** The largest |wait / schedule − 1| over every retry of every other delivery. */
  worstDeviation: number;
  /** The longest an other delivery's first attempt came after its payment. */
  worstFirstWait: number;
}

export interface Hooks {
  /** With the default setting (or, on a build without it, one at a time). */
  defaults: HookRun;
  /** With SANDBOX_WEBHOOK_CONCURRENCY=1 (which a build without the setting ignores). */
  one: HookRun;
}

/**
 * A receiver for the head-of-line run: every request whose narration is `hang` is held unanswered (until the
 * sandbox gives up on it), every other delivery is answered 500 until its last attempt, then 200.
 */
async function startHangingReceiver(): Promise<{ url: string; close: () => Promise<void> }> {
  const seen = new Map<string, number>();
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const payload: unknown = JSON.parse(body || '{}');
      const narration = isRecord(payload) ? payload.narration : undefined;
      const reference = isRecord(payload) ? String(payload.transactionReference) : '';
      if (narration === 'hang') {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      const n = (seen.get(reference) ?? 0) + 1;
      seen.set(reference, n);
      res.writeHead(n < HOOK_ATTEMPTS ? 500 : 200).end();
    });
  });
  return {
    url: await listenForHooks(server),
    close: () => {
      for (const res of held) res.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One client's receiver hangs on one delivery (every attempt of it runs into the timeout) while
 * HOOK_FAST_DELIVERIES other payments arrive right after it, each answered 500 until its last attempt. Reads
 * the other deliveries' attempt times (the sandbox clock, running with real time) and compares their spacing with
 * the backoff schedule. `env` is the sandbox's extra environment.
 */
async function hookRun(dir: string, name: string, env: Record<string, string>): Promise<HookRun> {
  const receiver = await startHangingReceiver();
  const launch: Launch = (port) => ({
    args: [
      ...ours(join(dir, `hooks-${name}.json`))(port).args,
      '--webhook-retry-base',
      String(HOOK_RETRY_BASE_MS),
      '--webhook-timeout',
      String(HOOK_TIMEOUT_MS),
      '--webhook-attempts',
      String(HOOK_ATTEMPTS),
    ],
    env,
  });
  const sandbox = await startServer(`webhooks (${name})`, launch);
  try {
    const headers = { ...schemeA(await signIn(sandbox)), 'content-type': 'application/json' };
    const api = (path: string, method: string, body?: unknown) =>
      requestJson(`${sandbox.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    await api('/api/v1/clients/settings/update-webhook-url', 'PATCH', { webhookUrl: receiver.url });
    const opened = await api('/api/v1/clients/business/virtual-accounts', 'POST', {
      firstName: 'Hook',
      lastName: 'Payee',
      type: 'permanent',
      reference: `hooks-${name}`,
    });
    const accountNumber = isRecord(opened) && isRecord(opened.data) ? opened.data.accountNumber : undefined;
    if (typeof accountNumber !== 'string') throw new Error(`virtual account: ${JSON.stringify(opened)}`);
    const pay = async (narration: string) => {
      const paid = await api('/__sandbox/incoming-payments', 'POST', {
        accountNumber,
        amount: 5000,
        narration,
      });
      const id = isRecord(paid) && isRecord(paid.data) ? paid.data.deliveryId : undefined;
      if (typeof id !== 'string') throw new Error(`incoming payment: ${JSON.stringify(paid)}`);
      return id;
    };
    await pay('hang');
    const others: string[] = [];
    for (let i = 0; i < HOOK_FAST_DELIVERIES; i++) others.push(await pay(`fast ${i}`));
    await requestJson(`${sandbox.url}/__sandbox/drain?timeoutMs=600000`, { method: 'POST' });
    const worstWaits = HOOK_SCHEDULE.map(() => 0);
    const worstGaps = HOOK_SCHEDULE.map(() => 0);
    let worstDeviation = 0;
    let worstFirstWait = 0;
    for (const id of others) {
      const got = await requestJson(`${sandbox.url}/__sandbox/webhooks/deliveries/${id}`);
      const d = isRecord(got) && isRecord(got.data) ? got.data : {};
      const attempts = (Array.isArray(d.attempts) ? d.attempts : []).map((a: unknown) => ({
        start: Date.parse(isRecord(a) ? String(a.at) : ''),
        duration: isRecord(a) ? Number(a.durationMs) : Number.NaN,
      }));
      if (d.status !== 'delivered' || attempts.length !== HOOK_ATTEMPTS)
        throw new Error(`delivery ${id}: ${d.status} after ${attempts.length} attempts`);
      worstFirstWait = Math.max(worstFirstWait, (attempts[0]?.start ?? 0) - Date.parse(String(d.createdAt)));
      HOOK_SCHEDULE.forEach((wait, i) => {
        const [failed, next] = [attempts[i], attempts[i + 1]];
        if (!failed || !next) return;
        const waited = next.start - failed.start - failed.duration;
        worstWaits[i] = Math.max(worstWaits[i] ?? 0, waited);
        worstGaps[i] = Math.max(worstGaps[i] ?? 0, next.start - failed.start);
        worstDeviation = Math.max(worstDeviation, Math.abs(waited / wait - 1));
      });
    }
    log(
      `  ${name}: waits after a failed attempt up to ${worstWaits.join('/')} ms (schedule ${HOOK_SCHEDULE.join('/')}; ` +
        `start to start ${worstGaps.join('/')}), first attempt up to ${worstFirstWait} ms after its payment`,
    );
    return { worstWaits, worstGaps, worstDeviation, worstFirstWait };
  } finally {
    await stopServer(sandbox);
    await receiver.close();
  }
}

export async function benchHooks(dir: string): Promise<Hooks> {
  log(
    `webhooks: one delivery hanging (timeout ${HOOK_TIMEOUT_MS} ms), ${HOOK_FAST_DELIVERIES} others of the same client retried on ${HOOK_SCHEDULE.join('/')} ms`,
  );
  return {
    defaults: await hookRun(dir, 'default', {}),
    one: await hookRun(dir, 'concurrency 1', { SANDBOX_WEBHOOK_CONCURRENCY: '1' }),
  };
}

export function hooksRows(hooks: Hooks): Row[] {
  return [hooks.defaults, hooks.one].flatMap((run, i) => {
    const setting = i === 0 ? 'default concurrency' : 'concurrency 1';
    const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
    const held: Row =
      i === 0
        ? [
            `webhooks (${setting}): first attempt after its payment, worst (baseline: the timeout)`,
            ms(run.worstFirstWait),
            ms(HOOK_TIMEOUT_MS),
            ratio(run.worstFirstWait, HOOK_TIMEOUT_MS),
            '≤ 1.00',
            verdict(run.worstFirstWait <= HOOK_TIMEOUT_MS),
          ]
        : [
            `webhooks (${setting}): first attempt after its payment, worst (held by the hanging one, by design)`,
            ms(run.worstFirstWait),
            ms(HOOK_TIMEOUT_MS),
            ratio(run.worstFirstWait, HOOK_TIMEOUT_MS),
            'one timeout',
            '',
          ];
    return [
      [
        `webhooks (${setting}): wait after each failed attempt while another delivery hangs, worst (start to start: ${run.worstGaps.join('/')} ms)`,
        `${run.worstWaits.join('/')} ms`,
        `${HOOK_SCHEDULE.join('/')} ms`,
        pct(run.worstDeviation),
        '≤ 10 %',
        verdict(run.worstDeviation <= 0.1),
      ],
      held,
    ] as Row[];
  });
}
