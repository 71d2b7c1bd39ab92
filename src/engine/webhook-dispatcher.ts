import { setMaxListeners } from 'node:events';
import type { FiredRule } from '../contract/scenarios.js';
import type { Deps } from '../deps.js';
import { retryDelayMs } from '../domain/backoff.js';
import { type ClockTask, capAtEnd, isoAt } from '../domain/clock.js';
import type { ClientRecord, DeliveryAttempt, DeliveryRecord, ScheduledRecord } from '../domain/records.js';
import { webhookHeaders } from '../domain/webhook-agent.js';
import { attemptFailed, backgroundError, deliveryDropped } from '../log-events.js';
import type { Tx } from '../store/store.js';
import { StoreWriteError } from '../store/write-error.js';
import { pruneDeliveries } from './delivery-log.js';
import { IdLine } from './id-line.js';
import { type ScheduleSink, scheduleJob } from './scheduler.js';
import { postWebhook } from './webhook-post.js';

type EngineDeps = Pick<Deps, 'store' | 'clock' | 'config' | 'log' | 'scenarios'>;

/**
 * A client's first attempts: how many run now (at most `webhookConcurrency`), and the deliveries waiting for a slot,
 * as ids in order. A task waiting in a p-queue held some 880 bytes (its promise, their functions, its entry), and
 * under load a client's backlog reaches tens of thousands: the soak benchmark's peak held 30 MB of them, and the heap
 * V8 grows for a peak it keeps.
 */
interface ClientLine {
  running: number;
  waiting: IdLine;
}

/** What went wrong when there was no HTTP answer, in a line a tester can act on. */
function describeFailure(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  if (e.cause?.code) return `${e.cause.code}${e.cause.message ? `: ${e.cause.message}` : ''}`;
  return e.message ?? String(error);
}

/**
 * Delivers incoming-payment notifications: `POST` of the payload as JSON with the client's `AUTH-KEY`. Only a
 * 200 acknowledges; any other status, a timeout or a refused connection is retried with exponential backoff
 * until the attempts run out. Every attempt is recorded on the delivery. Scenario rules may delay an attempt, make
 * it fail as if the receiver were down (`refuse`), send it twice (`duplicate`) or lose the delivery (`drop`).
 *
 * The order a client's deliveries keep: first attempts start in the order the deliveries were made, up to
 * `webhookConcurrency` at once (per client); the slot is held from the start of the attempt (its
 * scenario delay included) until it is recorded. A retry takes no slot: it starts when its backoff is up, so a
 * receiver that hangs on one delivery holds no other delivery's retries, and holds a first attempt only while every
 * slot is taken, each for at most its timeout. Retries that come due at the same moment start in the order their
 * deliveries were made, so the scenario rules count them in the same order whatever order their receivers answered
 * in. Retries wait on the clock, and `resume()` re-arms them after a restart from the persisted `nextAttemptAt`.
 *
 * The log gets a `webhook.attempt_failed` line per attempt that was not acknowledged, once it is recorded: the
 * attempt's number, and when the next is due or that it was the last.
 */
export class WebhookDispatcher {
  private readonly lines = new Map<string, ClientLine>();
  /** Deliveries waiting for a retry, each with the token of its current wait. */
  private readonly timers = new Map<string, symbol>();
  /** Deliveries scheduled, queued or being attempted. */
  private readonly open = new Set<string>();
  /** Where each open delivery stands in the order they were handed over (made, or resumed): the tie-break. */
  private readonly rank = new Map<string, number>();
  private nextRank = 0;
  /** Scheduled deliveries woken at the same moment, started together in `rank` order (see `inTurn`). */
  private woken: { rank: number; go: () => void }[] = [];
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  /** Aborted on close: a POST on its way is abandoned with its connection (a deleted sandbox's sends nothing more). */
  private readonly stopped = new AbortController();

  constructor(
    private readonly deps: EngineDeps,
    /** Where a late duplicate a rule asks for (`duplicate` with `afterMs`) is scheduled. */
    private readonly later: ScheduleSink,
  ) {
    // One listener a POST in flight: as many as the deliveries attempted at once, none kept after its exchange.
    setMaxListeners(0, this.stopped.signal);
  }

  /**
   * Makes the first attempt of a pending delivery (or the first of a fresh round, a redelivery) once one of its
   * client's slots is free, after the client's deliveries handed over before it.
   */
  deliver(id: string): void {
    const delivery = this.deps.store.get('deliveries', id);
    if (!delivery || this.closed) return;
    this.enter(id);
    const line = this.lineOf(delivery.clientId);
    line.waiting.push(id);
    this.feed(line);
  }

  /**
   * Starts a client's waiting deliveries while it has free slots. Each attempt is a task of the clock: an advance
   * waits for its I/O (the POST, the durable write). The next one starts from the settling of this one, before the
   * next turn, so an advance sees no gap.
   */
  private feed(line: ClientLine): void {
    const settled = () => {
      line.running--;
      this.feed(line);
    };
    while (line.waiting.size > 0 && line.running < this.deps.config.webhookConcurrency) {
      const id = line.waiting.take() as string;
      line.running++;
      void this.deps.clock.run((task) => this.attemptOnce(id, task)).then(settled, settled);
    }
  }

  /** After a start-up: every pending delivery is attempted when its next attempt is due. */
  resume(): number {
    const pending = this.deps.store.all('deliveries').filter((d) => d.status === 'pending');
    pending.sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0));
    for (const d of pending) this.schedule(d);
    return pending.length;
  }

  /** Deliveries scheduled, queued or being attempted now. */
  get backlog(): number {
    return this.open.size;
  }

  /**
   * Whether a delivery is being attempted or waits for a slot now, or (with `realTime`: the clock runs) waits for a
   * retry that comes due on its own. A retry on a frozen clock waits for an advance, and keeps nothing busy.
   */
  busy(realTime: boolean): boolean {
    return this.open.size > this.timers.size || (realTime && this.timers.size > 0);
  }

  /** Resolves once no delivery is scheduled, queued or being attempted (retries due later included). */
  idle(): Promise<void> {
    if (this.open.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops a scheduled retry of one delivery (it is about to be sent again). */
  cancel(id: string): void {
    this.timers.delete(id);
  }

  /** Forgets every scheduled and queued delivery (reset). */
  clear(): void {
    this.timers.clear();
    // Attempts running now finish and free their slots; the waiting ones are forgotten.
    for (const line of this.lines.values()) line.waiting.clear();
    this.open.clear();
    this.rank.clear();
    this.wakeIdle();
  }

  /** Stops: pending deliveries stay pending in the state and resume at the next start. */
  close(): void {
    this.closed = true;
    this.stopped.abort();
    this.clear();
  }

  private lineOf(clientId: string): ClientLine {
    let line = this.lines.get(clientId);
    if (!line) {
      line = { running: 0, waiting: new IdLine() };
      this.lines.set(clientId, line);
    }
    return line;
  }

  /** The delivery is open from now on, ranked after every delivery handed over before it. */
  private enter(id: string): void {
    this.open.add(id);
    if (!this.rank.has(id)) this.rank.set(id, this.nextRank++);
  }

  private schedule(delivery: DeliveryRecord): void {
    if (this.closed) return;
    this.enter(delivery.id);
    // The wait runs on the sandbox clock, so advancing it makes a retry due at once. A newer schedule, a cancel
    // or a clear replaces the token, and the old wait then does nothing.
    const token = Symbol(delivery.id);
    this.timers.set(delivery.id, token);
    // A task of the clock too, busy again from the moment it is woken until its attempt is recorded (or handed to
    // the line), so an advance sees no gap.
    void this.deps.clock.run(async (task) => {
      await task.sleep(Math.max(0, (delivery.nextAttemptAt ?? 0) - this.deps.clock.now()));
      await this.inTurn(delivery.id);
      if (this.timers.get(delivery.id) !== token) return;
      this.timers.delete(delivery.id);
      // A delivery that never had an attempt (pending at a restart) takes its place among the first attempts; a
      // retry goes at once, whatever else of its client is in flight.
      if (this.deps.store.get('deliveries', delivery.id)?.attempts.length === 0) this.deliver(delivery.id);
      else await this.attemptOnce(delivery.id, task);
    });
  }

  /**
   * Resolves in `rank` order among the deliveries woken in the same turn of the event loop: the clock wakes the
   * waits due at one moment in the order they began, which is the order earlier attempts happened to finish in;
   * this puts them back in the order the deliveries were made, which is what the scenario rules count in.
   */
  private inTurn(id: string): Promise<void> {
    return new Promise((go) => {
      this.woken.push({ rank: this.rank.get(id) ?? Number.POSITIVE_INFINITY, go });
      if (this.woken.length > 1) return;
      // After every wait woken by the same advance step or timer phase has been queued (each is busy meanwhile,
      // so an advance waits for this).
      setImmediate(() => {
        const turn = this.woken.splice(0).sort((a, b) => a.rank - b.rank);
        for (const w of turn) w.go();
      });
    });
  }

  /**
   * One attempt, its failures kept in: a write the store refused (`StoreWriteError`) undid the record of the
   * attempt, so the delivery is still pending and goes back to the queue once writes work (a receiver may see it
   * twice, as webhooks allow); anything else is logged and the delivery let go.
   */
  private async attemptOnce(id: string, task: ClockTask): Promise<void> {
    try {
      await this.attempt(id, task);
    } catch (error) {
      if (error instanceof StoreWriteError) {
        void this.deps.store.whenWritable().then(() => {
          if (this.open.has(id)) this.deliver(id);
        });
        return;
      }
      this.deps.log(backgroundError('webhook.error', id, error));
      this.settle(id);
    }
  }

  private settle(id: string): void {
    this.open.delete(id);
    this.rank.delete(id);
    this.wakeIdle();
  }

  private wakeIdle(): void {
    if (this.open.size > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** The delivery and its client, when it is still pending and has somewhere to go. */
  private sendable(id: string): { delivery: DeliveryRecord; client: ClientRecord } | null {
    const { store } = this.deps;
    const delivery = store.get('deliveries', id);
    const client = delivery && store.get('clients', delivery.clientId);
    if (!delivery || !client || delivery.status !== 'pending' || !delivery.url || this.closed) return null;
    return { delivery, client };
  }

  private async attempt(id: string, task: ClockTask): Promise<void> {
    const { store, clock, config } = this.deps;
    let target = this.sendable(id);
    if (!target) {
      this.settle(id);
      return;
    }
    // Keyed on the delivery's ordinal and the attempt's number, both the sandbox's own. The rule comes with its
    // effect, never one without the other: a `drop` always has the rule its log line names. A late duplicate is the
    // rule's doing already: no rule is asked again.
    const hit =
      target.delivery.duplicateOf === undefined
        ? this.deps.scenarios.match({
            on: 'webhook',
            clientId: target.delivery.clientId,
            businessId: target.delivery.businessId,
            accountNumber: target.delivery.payload.recipientAccountNumber,
            amount: target.delivery.payload.amount,
            nthInBusiness: target.delivery.ordinal + 1,
            key: `delivery ${target.delivery.ordinal} attempt ${target.delivery.attempts.length}`,
          })
        : null;
    if (hit?.effect.delayMs) {
      await task.sleep(hit.effect.delayMs);
      // The state may have moved on meanwhile (a reset, a redelivery to another URL).
      target = this.sendable(id);
      if (!target) {
        this.settle(id);
        return;
      }
    }
    const { delivery, client } = target;
    const attempts: DeliveryAttempt[] = [];
    if (hit?.effect.webhook === 'drop') {
      await this.drop(id, hit.rule);
      return;
    }
    if (hit?.effect.webhook === 'refuse') {
      attempts.push({
        at: isoAt(clock),
        statusCode: null,
        error: 'ECONNREFUSED: the receiver is down (scenario)',
        durationMs: 0,
      });
    } else {
      attempts.push(await this.send(delivery, client));
      if (hit?.effect.webhook === 'duplicate' && hit.effect.afterMs === undefined && !this.closed)
        attempts.push(await this.send(delivery, client));
    }
    const acknowledged = attempts.some((a) => a.statusCode === 200);
    if (this.closed) return;
    const lateAfterMs = hit?.effect.webhook === 'duplicate' ? hit.effect.afterMs : undefined;
    let late: ScheduledRecord | undefined;
    const updated = await store.mutate((tx) => {
      const current = tx.get('deliveries', id);
      if (current?.status !== 'pending') return null;
      // Once a delivery, at its first attempt: its retries do not send it again and again.
      if (lateAfterMs !== undefined && current.attempts.length === 0)
        late = scheduleJob(tx, clock, {
          kind: 'duplicate',
          afterMs: lateAfterMs,
          businessId: current.businessId,
          target: id,
          reason: null,
        });
      const attemptsLeft = Math.max(0, current.attemptsLeft - 1);
      const status = acknowledged ? 'delivered' : attemptsLeft === 0 ? 'failed' : 'pending';
      const retry = config.webhookAttempts - attemptsLeft;
      const next: DeliveryRecord = {
        ...current,
        status,
        attempts: [...current.attempts, ...attempts],
        attemptsLeft,
        // Capped at the end of time, where the clock stands still: a retry due past it would never come.
        nextAttemptAt:
          status === 'pending'
            ? capAtEnd(clock.now() + retryDelayMs(retry, config.webhookRetryBase, config.webhookRetryFactor))
            : null,
      };
      tx.put('deliveries', next);
      if (status !== 'pending') pruneDeliveries(tx, current.clientId, config.deliveryLogSize);
      return next;
    });
    // One line per attempt, whose outcome is its last POST's (a duplicated attempt sends two).
    const last = attempts.at(-1);
    // A refusal the scenario made is what the test asked for (`info`); a receiver that did not acknowledge is not.
    const byRule = hit?.effect.webhook === 'refuse' ? hit.rule : null;
    if (updated && !acknowledged && last)
      this.deps.log(attemptFailed(updated, last, config.webhookAttempts, byRule));
    if (late) this.later.add(late);
    if (updated?.status === 'pending') this.schedule(updated);
    this.settleUnlessScheduled(id);
  }

  /**
   * A late duplicate, when it is due (in the scheduler's mutation): a delivery of its own (its own id in the log)
   * with the first one's payload and URL, sent with the client's `AUTH-KEY` once the mutation is durable, and
   * matched against no rule. Nothing when the first one is gone (a reset) or its client has no URL now.
   */
  readonly lateDuplicate = (tx: Tx, job: ScheduledRecord): (() => void) | undefined => {
    const { clock, config } = this.deps;
    const first = tx.get('deliveries', job.target);
    if (!first?.url || !tx.get('clients', first.clientId)) return undefined;
    const copy: DeliveryRecord = {
      id: tx.random().uuid(),
      clientId: first.clientId,
      businessId: first.businessId,
      transactionReference: first.transactionReference,
      ordinal: first.ordinal,
      url: first.url,
      payload: first.payload,
      status: 'pending',
      attempts: [],
      attemptsLeft: config.webhookAttempts,
      nextAttemptAt: clock.now(),
      createdAt: isoAt(clock),
      duplicateOf: first.id,
    };
    tx.put('deliveries', copy);
    return () => this.deliver(copy.id);
  };

  /** One POST of the delivery's payload, and what came of it. */
  private async send(delivery: DeliveryRecord, client: ClientRecord): Promise<DeliveryAttempt> {
    const { clock, config } = this.deps;
    const at = isoAt(clock);
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      statusCode = await postWebhook(
        delivery.url ?? '',
        webhookHeaders(client),
        JSON.stringify(delivery.payload),
        config.webhookTimeout,
        this.stopped.signal,
      );
      if (statusCode !== 200) error = `HTTP ${statusCode}: only 200 acknowledges a delivery`;
    } catch (e) {
      error = describeFailure(e, config.webhookTimeout);
    }
    return { at, statusCode, error, durationMs: Math.round(performance.now() - started) };
  }

  /** A scenario lost the delivery: it is recorded as `dropped` and never sent. */
  private async drop(id: string, rule: FiredRule): Promise<void> {
    const { store, clock, config } = this.deps;
    const dropped = await store.mutate((tx) => {
      const current = tx.get('deliveries', id);
      if (current?.status !== 'pending') return null;
      const attempt: DeliveryAttempt = {
        at: isoAt(clock),
        statusCode: null,
        error: 'dropped by the scenario: never sent',
        durationMs: 0,
      };
      const next: DeliveryRecord = {
        ...current,
        status: 'dropped',
        attempts: [...current.attempts, attempt],
        attemptsLeft: 0,
        nextAttemptAt: null,
      };
      tx.put('deliveries', next);
      pruneDeliveries(tx, current.clientId, config.deliveryLogSize);
      return next;
    });
    if (dropped) this.deps.log(deliveryDropped(dropped, rule));
    this.settle(id);
  }

  private settleUnlessScheduled(id: string): void {
    if (!this.timers.has(id)) this.settle(id);
  }
}
