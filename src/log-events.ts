import type { FiredRule } from './contract/scenarios.js';
import { isoOf } from './domain/clock.js';
import type { BulkTransferRecord, DeliveryAttempt, DeliveryRecord } from './domain/records.js';
import { redactWebhookUrl, scrubWebhookError } from './domain/redact.js';
import type { CataloguedEvent } from './log-catalogue.js';
import type { WriteHealth } from './store/store.js';
import type { StateTakenOverError } from './store/write-error.js';

/*
 * Every event the log has besides the request lines and the banner, in one place: its name, its level, its JSON
 * fields and its pretty line, each held by the compiler to what `log-catalogue.ts` says of it. User text (a
 * batch's name) is quoted as JSON, so that a line stays one line.
 */

const quoted = (text: string) => JSON.stringify(text);
const errorText = (error: unknown) => String((error as Error)?.stack ?? error);

/** A batch's items were queued: claimed by `process`, or resumed at a start-up. */
export function batchStarted(
  batch: BulkTransferRecord,
  queuedItems: number,
  resumed: boolean,
): CataloguedEvent<'batch.started'> {
  const items =
    queuedItems === batch.totalItems ? `${queuedItems} items` : `${queuedItems} of ${batch.totalItems} items`;
  return {
    level: 'info',
    event: 'batch.started',
    fields: {
      batchId: batch.id,
      clientId: batch.clientId,
      businessId: batch.businessId,
      batchName: batch.batchName,
      bulkReference: batch.bulkReference,
      totalItems: batch.totalItems,
      queuedItems,
      resumed,
    },
    text: `${batch.id} ${quoted(batch.batchName)} (${quoted(batch.bulkReference)}): ${items}, client ${batch.clientId}, business ${batch.businessId}${resumed ? ', resumed after a restart' : ''}`,
  };
}

/** How the items of one run of a batch (a process, a reprocess, a resume) that failed came to fail. */
export interface RunFailures {
  /** Failed by a scenario rule, on purpose: the magic accounts, `insufficient-funds-midway`, a test's own rule. */
  byScenario: number;
  /**
   * Failed with no rule behind them: a real shortage of balance. After a restart, also the items that failed
   * before it, whose cause was not kept.
   */
  unexpectedly: number;
}

/** `5 failed (3 by a scenario rule, 2 unexpectedly)`. */
function failedText(failedItems: number, { byScenario, unexpectedly }: RunFailures): string {
  const parts = [
    byScenario > 0 ? `${byScenario} by a scenario rule` : null,
    unexpectedly > 0 ? `${unexpectedly} unexpectedly` : null,
  ].filter((p) => p !== null);
  return `${failedItems} failed${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

/**
 * A batch's last open item finished. `sandboxDurationMs` is measured on the sandbox clock (an advance of the clock
 * counts), from when its items were queued (or resumed). `warn` only when an item of this run failed unexpectedly
 * (`failures`): one a scenario failed on purpose is what the test asked for, so a quiet run does not show it.
 */
export function batchSettled(
  batch: BulkTransferRecord,
  sandboxDurationMs: number,
  resumed: boolean,
  failures: RunFailures,
): CataloguedEvent<'batch.settled'> {
  return {
    level: failures.unexpectedly > 0 ? 'warn' : 'info',
    event: 'batch.settled',
    fields: {
      batchId: batch.id,
      clientId: batch.clientId,
      businessId: batch.businessId,
      batchName: batch.batchName,
      status: batch.status,
      totalItems: batch.totalItems,
      completedItems: batch.completedItems,
      failedItems: batch.failedItems,
      failedByScenario: failures.byScenario,
      failedUnexpectedly: failures.unexpectedly,
      sandboxDurationMs,
      resumed,
    },
    text: `${batch.id} ${quoted(batch.batchName)}: ${batch.status}, ${batch.completedItems} completed, ${failedText(batch.failedItems, failures)}, in ${sandboxDurationMs} ms on the sandbox clock${resumed ? ' since it was resumed' : ''}`,
  };
}

/** `(scenario webhook-receiver-down, rule 0)`: the rule that made it happen. */
const ruleText = (rule: FiredRule) => `(scenario ${rule.name}, rule ${rule.rule})`;

/**
 * An attempt of a delivery that was not acknowledged, as recorded in `delivery` (after it): attempt `n` of the
 * round's `maxAttempts`, and when the next is due on the sandbox clock, or that it was the last. The URL and the
 * error are shown without the URL's userinfo and query values. `byRule` is the scenario rule whose `refuse` failed
 * it on purpose (then the line is `info`); null when the receiver itself did not acknowledge it (`warn`).
 */
export function attemptFailed(
  delivery: DeliveryRecord,
  attempt: DeliveryAttempt,
  maxAttempts: number,
  byRule: FiredRule | null,
): CataloguedEvent<'webhook.attempt_failed'> {
  const url = delivery.url ?? '';
  const n = Math.max(1, maxAttempts - delivery.attemptsLeft);
  const error = scrubWebhookError(attempt.error ?? `HTTP ${attempt.statusCode}`, url);
  const next = delivery.nextAttemptAt === null ? null : isoOf(delivery.nextAttemptAt);
  const shown = redactWebhookUrl(url);
  return {
    level: byRule === null ? 'warn' : 'info',
    event: 'webhook.attempt_failed',
    fields: {
      deliveryId: delivery.id,
      clientId: delivery.clientId,
      businessId: delivery.businessId,
      url: shown,
      statusCode: attempt.statusCode,
      error,
      attempt: n,
      maxAttempts,
      nextAttemptAt: next,
      gaveUp: next === null,
      scenario: byRule,
    },
    text: `${delivery.id} to ${shown}: ${error}; attempt ${n} of ${maxAttempts}, ${next === null ? `gave up (delivery ${delivery.status})` : `next attempt at ${next} (sandbox clock)`}${byRule === null ? '' : ` ${ruleText(byRule)}`}`,
  };
}

/** A scenario rule's `drop` lost a delivery: recorded `dropped`, never sent. On purpose, so `info`. */
export function deliveryDropped(
  delivery: DeliveryRecord,
  byRule: FiredRule,
): CataloguedEvent<'webhook.dropped'> {
  const shown = redactWebhookUrl(delivery.url ?? '');
  return {
    level: 'info',
    event: 'webhook.dropped',
    fields: {
      deliveryId: delivery.id,
      clientId: delivery.clientId,
      businessId: delivery.businessId,
      url: shown,
      scenario: byRule,
    },
    text: `${delivery.id} to ${shown}: dropped, never sent ${ruleText(byRule)}`,
  };
}

/**
 * A scenario rule's custom answer rendered too large to send (a template put a long value of the request in it): the
 * request was answered 502 saying so. `warn`: the test did not ask for it, and a quiet run must show why its call
 * failed, since no 500 (the sandbox's own failure) was answered and no `http.error` line says it.
 */
export function answerTooLarge(
  method: string,
  path: string,
  requestId: string,
  rule: FiredRule | null,
  limit: number,
  message: string,
): CataloguedEvent<'scenario.answer_too_large'> {
  return {
    level: 'warn',
    event: 'scenario.answer_too_large',
    fields: { method, path, requestId, scenario: rule, limit, message },
    text: `${method} ${path} request=${requestId}: ${message}`,
  };
}

/** A custom answer's header that rendered to something no header may carry: the request got 502 instead. */
export function headerRefused(
  method: string,
  path: string,
  requestId: string,
  rule: FiredRule | null,
  header: string,
  message: string,
): CataloguedEvent<'scenario.header_refused'> {
  return {
    level: 'warn',
    event: 'scenario.header_refused',
    fields: { method, path, requestId, scenario: rule, header, message },
    text: `${method} ${path} request=${requestId}: ${message}`,
  };
}

/** Work left open by the last run, taken up again at a start-up. */
export function resumed(bulkItems: number, deliveries: number): CataloguedEvent<'sandbox.resumed'> {
  const message = `resuming ${bulkItems} bulk transfer item(s) and ${deliveries} webhook delivery(ies) left open by the last run`;
  return {
    level: 'info',
    event: 'sandbox.resumed',
    fields: { bulkItems, deliveries, message },
    text: message,
  };
}

/** An isolated sandbox went: deleted by a call, or dropped after `--sandbox-idle-ttl` unused. */
export function sandboxDropped(
  sandbox: string,
  reason: 'deleted' | 'expired',
  idleTtlMs: number,
  requests: number,
): CataloguedEvent<'sandbox.dropped'> {
  const idleTtlSeconds = Math.round(idleTtlMs / 1000);
  const message =
    reason === 'deleted'
      ? `isolated sandbox ${sandbox} deleted, with its queued work (${requests} requests answered)`
      : `isolated sandbox ${sandbox} dropped: unused for ${idleTtlSeconds} s (--sandbox-idle-ttl); its paths answer 404 from now on`;
  return {
    level: 'info',
    event: 'sandbox.dropped',
    fields: { sandbox, reason, idleTtlSeconds, requests, message },
    text: message,
  };
}

/**
 * A start-up found its state file and kept it, so a seed or a fixtures folder it was given does not make the state:
 * `seed` when it differs from the state's own (`stateSeed`), `fixtures` whenever given (the state does not record
 * which folder made it). What is true of each, said once, at `warn`: the state keeps its seed (its records and the
 * identifiers it draws) and its clients and roles; the given seed still draws for scenarios without a seed of their
 * own, and the given folder's banks, billers, BVN register, fees and states apply, as they are read at every start. A reset
 * rebuilds the state from both, as does a start without the state file and its journal.
 */
export function stateKept(
  file: string,
  stateSeed: number,
  seed: number | null,
  fixtures: string | null,
): CataloguedEvent<'sandbox.state_kept'> {
  const parts = [
    fixtures === null
      ? null
      : {
          given: `--fixtures ${fixtures}`,
          kept: 'its clients and roles',
          applies: `the banks, billers, BVN register, fees and states of ${fixtures} apply`,
          rebuilt: `from ${fixtures}`,
        },
    seed === null
      ? null
      : {
          given: `--seed ${seed}`,
          kept: `its own seed ${stateSeed} (for its records and new identifiers)`,
          applies: `scenario draws use seed ${seed}`,
          rebuilt: `with seed ${seed}`,
        },
  ].filter((part) => part !== null);
  const each = (key: keyof (typeof parts)[number], separator: string) =>
    parts.map((part) => part[key]).join(separator);
  const message = `${each('given', ' and ')} not applied to the state: the state file ${file} already exists and keeps ${each('kept', ' and ')}; ${each('applies', '; ')}. To start afresh, POST /__sandbox/reset rebuilds it ${each('rebuilt', ' ')}, or stop the sandbox and delete ${file} and ${file}.wal`;
  return {
    level: 'warn',
    event: 'sandbox.state_kept',
    fields: { file, stateSeed, seed, fixtures, message },
    text: message,
  };
}

/**
 * The sandbox listens on an address other machines reach, and no control token guards the control API: whoever
 * reaches the port can reset it, read every secret and export the state. Said once at start-up, at `warn`.
 */
export function exposed(listening: string): CataloguedEvent<'control.exposed'> {
  const message = `the control API is open to the network: listening on ${listening} without --control-token, anyone who reaches this port can reset the state, set balances, read every client's secret key and export the whole state (its token key included); set --control-token (SANDBOX_CONTROL_TOKEN) to close it, or listen on 127.0.0.1`;
  return { level: 'warn', event: 'control.exposed', fields: { listening, message }, text: message };
}

export function compactionFailed(error: unknown): CataloguedEvent<'store.compaction_failed'> {
  const message = `snapshot compaction failed (the journal still holds everything): ${(error as Error)?.message ?? error}`;
  return { level: 'warn', event: 'store.compaction_failed', fields: { message }, text: message };
}

/** The disk stopped taking writes (`error`), or takes them again (`warn`, so that `--quiet` shows the pair). */
export function writeHealth(health: WriteHealth): CataloguedEvent<'store.writable' | 'store.write_failing'> {
  if (health.writable) {
    const message = 'writes work again: the state is being saved';
    return { level: 'warn', event: 'store.writable', fields: { message }, text: message };
  }
  const message = `${health.message}; reads go on, writes answer 503 until the disk takes them again`;
  return {
    level: 'error',
    event: 'store.write_failing',
    fields: { code: health.code, since: isoOf(health.since), message },
    text: message,
  };
}

/**
 * The state file is no longer this process's: its lock was removed, or another process took it over after this one
 * was paused past the staleness window. Said once, at `error`: writes answer 503 from then on, and the CLI exits 1.
 */
export function takenOver(error: StateTakenOverError): CataloguedEvent<'store.taken_over'> {
  const { lockFile, holder } = error;
  const now =
    holder === null
      ? 'was removed'
      : holder.pid === null
        ? 'now holds something that names no sandbox'
        : `now names process ${holder.pid}${holder.host === null ? '' : ` on host ${holder.host}`}`;
  const message = `the state file was taken over by another process: its lock ${lockFile} ${now}; this process writes nothing more and answers every write 503 (the banking-sandbox command exits 1)`;
  return {
    level: 'error',
    event: 'store.taken_over',
    fields: {
      lockFile,
      holderPid: holder?.pid ?? null,
      holderHost: holder?.host ?? null,
      removed: holder === null,
      message,
    },
    text: message,
  };
}

/** A request answered 500: the sandbox's own failure. */
export function requestError(
  method: string,
  path: string,
  requestId: string,
  error: unknown,
): CataloguedEvent<'http.error'> {
  const stack = errorText(error);
  return {
    level: 'error',
    event: 'http.error',
    fields: { method, path, requestId, error: stack },
    text: `${method} ${path} request=${requestId}: ${stack}`,
  };
}

/** What the sandbox answered a request that Node's HTTP parser refused: the log's account of it. */
export interface ClientRefusal {
  status: number;
  message: string;
  /** Node's code for what it refused: `HPE_HEADER_OVERFLOW`, `HPE_INVALID_METHOD`, `ERR_HTTP_REQUEST_TIMEOUT`... */
  code: string;
  requestId: string;
}

/**
 * A request Node's HTTP parser refused (headers too large, not HTTP, too slow) answered with the envelope. It never
 * reached the app, so this line is all the log and the journal have of it; `warn`, so that `--quiet` keeps it.
 */
export function clientRefused({
  status,
  message,
  code,
  requestId,
}: ClientRefusal): CataloguedEvent<'http.client_error'> {
  return {
    level: 'warn',
    event: 'http.client_error',
    fields: { status, code, requestId, message },
    text: `${status} ${message} (${code}) request=${requestId}`,
  };
}

/** Background work failed in a way nobody expected (not a refused write: those are retried). */
export function backgroundError(
  kind: 'bulk.item_error' | 'webhook.error' | 'scheduled.error',
  id: string,
  error: unknown,
): CataloguedEvent<'bulk.item_error' | 'webhook.error' | 'scheduled.error'> {
  const stack = errorText(error);
  const text = `${id}: ${stack}`;
  if (kind === 'bulk.item_error')
    return { level: 'error', event: kind, fields: { itemId: id, error: stack }, text };
  if (kind === 'scheduled.error')
    return { level: 'error', event: kind, fields: { jobId: id, error: stack }, text };
  return { level: 'error', event: kind, fields: { deliveryId: id, error: stack }, text };
}

/** With `--record`: an upstream answer the recording leaves out, and why. */
export function recordingSkipped(
  method: string,
  path: string,
  status: number,
  reason: string,
): CataloguedEvent<'recording.skipped'> {
  return {
    level: 'warn',
    event: 'recording.skipped',
    fields: { method, path, status, reason },
    text: `${method} ${path} ${status} not recorded: ${reason}`,
  };
}

/** With `--record`: the recording's file could not be written. */
export function recordingFailed(file: string, error: unknown): CataloguedEvent<'recording.write_failed'> {
  const code = (error as NodeJS.ErrnoException | null)?.code ?? null;
  const message = `the recording ${file} could not be written (${(error as Error)?.message ?? error}); the next answer tries again`;
  return { level: 'warn', event: 'recording.write_failed', fields: { file, code, message }, text: message };
}
