import { ridesAlong, type ScenarioRule } from '../contract/scenarios.js';

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

function conditionsHold(rule: ScenarioRule, event: ScenarioEvent): boolean {
  const m = rule.match;
  if (rule.on !== event.on) return false;
  if (m.clientId !== undefined && m.clientId !== event.clientId) return false;
  if (m.businessId !== undefined && m.businessId !== event.businessId) return false;
  if (m.accountNumber !== undefined && m.accountNumber !== event.accountNumber) return false;
  if (
    m.accountNumberPattern !== undefined &&
    !new RegExp(m.accountNumberPattern).test(event.accountNumber ?? '')
  ) {
    return false;
  }
  if (m.bankCode !== undefined && m.bankCode !== event.bankCode) return false;
  if (m.amount?.min !== undefined && (event.amount ?? -1) < m.amount.min) return false;
  if (m.amount?.max !== undefined && (event.amount ?? Number.POSITIVE_INFINITY) > m.amount.max) return false;
  if (m.batchName !== undefined && m.batchName !== event.batchName) return false;
  if (m.itemIndex?.min !== undefined && (event.itemIndex ?? -1) < m.itemIndex.min) return false;
  if (m.itemIndex?.max !== undefined && (event.itemIndex ?? Number.POSITIVE_INFINITY) > m.itemIndex.max)
    return false;
  if (m.method !== undefined && m.method !== event.method) return false;
  if (m.path !== undefined && !new RegExp(m.path).test(event.path ?? '')) return false;
  if (m.status?.min !== undefined && (event.status ?? -1) < m.status.min) return false;
  if (m.status?.max !== undefined && (event.status ?? Number.POSITIVE_INFINITY) > m.status.max) return false;
  if (m.validation !== undefined && m.validation !== event.validation) return false;
  // An error rule that would give the answer the status it has changes nothing: it does not use its `times`,
  // shows in no journal entry, and leaves the answer to a later rule.
  if (rule.effect.status !== undefined && rule.effect.status === event.status) return false;
  return true;
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
): MatchResult {
  const conditionsMet: number[] = [];
  const riders: MatchResult['riders'] = [];
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index];
    if (!rule || !conditionsHold(rule, event)) continue;
    conditionsMet.push(index);
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
