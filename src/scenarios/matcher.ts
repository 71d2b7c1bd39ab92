import { readBound, ridesAlong, type ScenarioRule } from '../contract/scenarios.js';

/** Something a rule can match: a transfer, a bulk item, a webhook attempt, an HTTP request or an error answer. */
export interface ScenarioEvent {
  on: ScenarioRule['on'];
  /** The client the event belongs to, where known: what `match.clientId` scopes a rule to. */
  clientId?: string;
  /** The business the event belongs to, where known: what `match.businessId` scopes a rule to. */
  businessId?: string;
  accountNumber?: string;
  bankCode?: string;
  amount?: number;
  batchName?: string;
  /** A bulk item's 0-based position in its batch: `everyNth` counts with it. */
  itemIndex?: number;
  /**
   * The event's 1-based place among its business's events of its kind (transfers, webhook deliveries) since the
   * rules in force were chosen: what `everyNth` counts with `everyNthPer: "business"`.
   */
  nthInBusiness?: number;
  method?: string;
  path?: string;
  /** An error answer's status. */
  status?: number;
  /** Whether an error answer is a validation failure (it carries `errors`). */
  validation?: boolean;
  /**
   * What the probability draw is keyed on: the event's coordinates as the sandbox counts them (`transfer 3`,
   * `batch 0 item 17 try 0`, `delivery 2 attempt 1`, `POST /api/v1/... 5`), never a value the client chose. The
   * same key always draws the same.
   */
  key: string;
  /** The client's reference (transfers and bulk items), for rules that draw on it (`drawBy: "reference"`). */
  reference?: string;
  /** A transfer's or bulk item's narration: what `match.narration` reads. */
  narration?: string;
  /** What `match.header`, `match.query` and `match.body` read of an HTTP request (http and error rules). */
  request?: RequestParts;
  /** When the event happened on the sandbox clock (ms): what `match.between` reads. */
  at?: number;
  /**
   * A sign-in's client, by the email in its body: a window counting per client counts the sign-in for it, while
   * scoped rules do not take the request for that client's (it is nobody's until it succeeds).
   */
  signingIn?: string;
  /**
   * Only the rules put in front of the scenario apply (with `--upstream`, over the start-up scenario: its magic
   * values never shadow the real bank).
   */
  overridesOnly?: boolean;
}

/** The parts of a request a rule may match on. */
export interface RequestParts {
  /** A header's value, by its name in lower case. */
  header(name: string): string | undefined;
  query(name: string): string | undefined;
  /** The JSON body, parsed; undefined when there is none (or it is not JSON). */
  body(): unknown;
}

/** Each pattern compiled once: the rules are data, and their patterns a handful. */
const compiled = new Map<string, RegExp>();
function test(source: string, text: string): boolean {
  let re = compiled.get(source);
  if (re === undefined) {
    // Bounded: a long run that sets many scenarios never holds more than a thousand patterns.
    if (compiled.size >= 1000) compiled.clear();
    re = new RegExp(source);
    compiled.set(source, re);
  }
  return re.test(text);
}

/** Minutes into the day in Lagos (UTC+1, no daylight saving) at `ms`. */
const lagosMinute = (ms: number) => (((Math.floor(ms / 60_000) + 60) % 1440) + 1440) % 1440;

type Bound = ReturnType<typeof readBound>;
/** Each rule's `between` read once: the rules are data, and a read costs a parse of two dates. */
const bounds = new WeakMap<{ from: string; to: string }, [Bound, Bound]>();

/** Whether the clock at `at` is inside a rule's `between`. */
function inside(between: { from: string; to: string }, at: number): boolean {
  let read = bounds.get(between);
  if (read === undefined) {
    read = [readBound(between.from), readBound(between.to)];
    bounds.set(between, read);
  }
  const [from, to] = read;
  if (!from || !to) return false;
  if ('instant' in from && 'instant' in to) return at >= from.instant && at < to.instant;
  if ('daily' in from && 'daily' in to) {
    const m = lagosMinute(at);
    return from.daily < to.daily ? m >= from.daily && m < to.daily : m >= from.daily || m < to.daily;
  }
  return false;
}

/** A value of a JSON body at a dotted path (array items by their index). */
function valueAt(body: unknown, path: string): unknown {
  let value = body;
  for (const segment of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** Whether every named part matches its pattern (a missing part matches nothing). */
function partsMatch(
  wanted: Record<string, string> | undefined,
  read: (name: string) => string | undefined,
): boolean {
  if (wanted === undefined) return true;
  for (const [name, source] of Object.entries(wanted)) {
    const value = read(name);
    if (value === undefined || !test(source, value)) return false;
  }
  return true;
}

function requestMatches(m: ScenarioRule['match'], request: RequestParts | undefined): boolean {
  if (m.header === undefined && m.query === undefined && m.body === undefined) return true;
  if (!request) return false;
  if (!partsMatch(m.header, (name) => request.header(name.toLowerCase()))) return false;
  if (!partsMatch(m.query, (name) => request.query(name))) return false;
  return partsMatch(m.body, (path) => {
    const value = valueAt(request.body(), path);
    return value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** What the controller knows about each rule: how often it matched its conditions, and applied. */
export interface RuleCounters {
  /** Events that met every condition but `everyNth` and `probability` (the count `everyNth` uses). */
  seen: number;
  applied: number;
}

/** 32-bit FNV-1a of a string: a stable hash for probability draws. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A draw in [0, 1) that depends only on the seed, the rule and the key: independent of event order. */
export function draw(seed: number, ruleIndex: number, key: string): number {
  let x = hash(`${seed}:${ruleIndex}:${key}`);
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return ((x ^ (x >>> 16)) >>> 0) / 4294967296;
}

/** A rule's conditions as one test of an event. */
export type Conditions = (event: ScenarioEvent) => boolean;

type Check = (e: ScenarioEvent) => boolean;

/**
 * A rule's conditions, all but `everyNth`, `probability` and `over`, made into one test of only the conditions the
 * rule has. Every request meets every `http` rule in force, and rules of as many shapes as they have conditions
 * made a test that looked each condition up in each rule slow (a lookup by name per condition); a test made once per
 * rule reads its own values only.
 */
export function conditionsOf(rule: ScenarioRule): Conditions {
  const m = rule.match;
  const checks: Check[] = [];
  const add = (check: Check) => checks.push(check);
  const { on } = rule;
  // The cheapest tests that tell most rules apart first: the kind, the method.
  add((e) => e.on === on);
  const { method, clientId, businessId, accountNumber, accountNumberPattern, bankCode, batchName, path } = m;
  if (method !== undefined) add((e) => e.method === method);
  if (clientId !== undefined) add((e) => e.clientId === clientId);
  if (businessId !== undefined) add((e) => e.businessId === businessId);
  if (accountNumber !== undefined) add((e) => e.accountNumber === accountNumber);
  if (accountNumberPattern !== undefined) add((e) => test(accountNumberPattern, e.accountNumber ?? ''));
  if (bankCode !== undefined) add((e) => e.bankCode === bankCode);
  const amountMin = m.amount?.min;
  const amountMax = m.amount?.max;
  if (amountMin !== undefined) add((e) => (e.amount ?? -1) >= amountMin);
  if (amountMax !== undefined) add((e) => (e.amount ?? Number.POSITIVE_INFINITY) <= amountMax);
  if (batchName !== undefined) add((e) => e.batchName === batchName);
  const indexMin = m.itemIndex?.min;
  const indexMax = m.itemIndex?.max;
  if (indexMin !== undefined) add((e) => (e.itemIndex ?? -1) >= indexMin);
  if (indexMax !== undefined) add((e) => (e.itemIndex ?? Number.POSITIVE_INFINITY) <= indexMax);
  if (path !== undefined) add((e) => test(path, e.path ?? ''));
  const statusMin = m.status?.min;
  const statusMax = m.status?.max;
  if (statusMin !== undefined) add((e) => (e.status ?? -1) >= statusMin);
  if (statusMax !== undefined) add((e) => (e.status ?? Number.POSITIVE_INFINITY) <= statusMax);
  const { validation, narration, between } = m;
  if (validation !== undefined) add((e) => e.validation === validation);
  if (narration !== undefined) add((e) => test(narration, e.narration ?? ''));
  if (between !== undefined) add((e) => inside(between, e.at ?? Date.now()));
  if (m.header !== undefined || m.query !== undefined || m.body !== undefined)
    add((e) => requestMatches(m, e.request));
  // An error rule that would give the answer the status it has changes nothing: it does not use its `times`,
  // shows in no journal entry, and leaves the answer to a later rule.
  const answered = rule.effect.status;
  if (answered !== undefined) add((e) => e.status !== answered);
  return (event) => {
    for (const check of checks) if (!check(event)) return false;
    return true;
  };
}

/** Each rule's conditions made once (`conditionsOf`): rules are data, never changed once parsed. */
const madeConditions = new WeakMap<ScenarioRule, Conditions>();

/** A rule's conditions, made once (`conditionsOf`). */
export function conditionsFor(rule: ScenarioRule): Conditions {
  let conditions = madeConditions.get(rule);
  if (conditions === undefined) {
    conditions = conditionsOf(rule);
    madeConditions.set(rule, conditions);
  }
  return conditions;
}

/** Whether the rule's conditions hold for the event, all but `everyNth`, `probability` and `over`. */
export function conditionsHold(rule: ScenarioRule, event: ScenarioEvent): boolean {
  return conditionsFor(rule)(event);
}

/** What the matcher found: the winning rule (or null) and every rule whose conditions held on the way to it. */
export interface MatchResult {
  match: { index: number; rule: ScenarioRule } | null;
  conditionsMet: number[];
  /**
   * The rules that applied on the way to the winner without deciding (`ridesAlong`: an answer lost after the
   * commit, a reversal later), in order.
   */
  riders: { index: number; rule: ScenarioRule }[];
}

/**
 * The first rule that applies to `event`. Pure: `counters` (one per rule, same order) says how often each rule
 * met its conditions and applied so far; the caller records the outcome. A rule whose `times` are used up is
 * passed over; `everyNth` uses a bulk item's position, or else the rule's own count of events that met its
 * conditions; `probability` draws from the seed, the rule and the event's key (or its reference, with
 * `drawBy: "reference"`). An `error` rule holds only where it would change the answer's status. Rules after the
 * winner are not looked at: first match wins. A rule that rides along (`ridesAlong`) applies and the search goes on.
 */
export function firstMatch(
  rules: readonly ScenarioRule[],
  event: ScenarioEvent,
  counters: readonly RuleCounters[],
  seed: number,
  /** The rules' conditions made beforehand (`conditionsOf`), in the same order; made here when not given. */
  conditions?: readonly Conditions[],
  /** Whether a rule's `match.over` holds for the event (its window's count or amount): the caller keeps windows. */
  overHolds: (index: number, rule: ScenarioRule) => boolean = () => true,
): MatchResult {
  const conditionsMet: number[] = [];
  const riders: MatchResult['riders'] = [];
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index];
    const holds = conditions?.[index];
    if (!rule || !(holds ? holds(event) : conditionsHold(rule, event))) continue;
    conditionsMet.push(index);
    if (rule.match.over !== undefined && !overHolds(index, rule)) continue;
    const count = counters[index] ?? { seen: 0, applied: 0 };
    if (rule.times !== undefined && count.applied >= rule.times) continue;
    const nth = rule.match.everyNth;
    if (nth !== undefined) {
      const position =
        rule.match.everyNthPer === 'business' && event.nthInBusiness !== undefined
          ? event.nthInBusiness
          : event.itemIndex !== undefined
            ? event.itemIndex + 1
            : count.seen + 1;
      if (position % nth !== 0) continue;
    }
    const p = rule.match.probability;
    const key = rule.match.drawBy === 'reference' ? (event.reference ?? event.key) : event.key;
    if (p !== undefined && draw(seed, index, key) >= p) continue;
    if (ridesAlong(rule.effect)) {
      riders.push({ index, rule });
      continue;
    }
    return { match: { index, rule }, conditionsMet, riders };
  }
  return { match: null, conditionsMet, riders };
}
