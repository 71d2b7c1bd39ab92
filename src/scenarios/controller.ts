import type { FiredRule, RuleEffect, Scenario, ScenarioRule } from '../contract/scenarios.js';
import type { ScenarioLibrary } from './library.js';
import {
  type Conditions,
  conditionsFor,
  conditionsHold,
  firstMatch,
  type RuleCounters,
  type ScenarioEvent,
} from './matcher.js';
import { Windows } from './windows.js';

interface Active {
  scenario: Scenario;
  /** Rules put in front of the scenario's own (msw's `use`), newest first. */
  overrides: ScenarioRule[];
  counters: RuleCounters[];
  /** How many events of each subject (`transfer:<businessId>`, ...) were counted since these rules were chosen. */
  ordinals: Map<string, number>;
  /** The sliding windows of the rules with `match.over`, by the rule's index. */
  windows: Windows;
}

/** What `ScenarioController.save()` answers: opaque to the caller. */
export interface SavedRules {
  readonly active: Active;
  readonly perRequest: ReadonlyMap<string, Active>;
}

/** A rule that applied: its effect, and which rule it was. */
export interface Hit {
  effect: RuleEffect;
  rule: FiredRule;
}

/** What applied to an event: the winner, and the first rule that rode along of each kind (see `matchAll`). */
export interface Matched {
  hit: Hit | null;
  afterCommit: Hit | null;
  reverse: Hit | null;
  /** Where the winner has `match.over`: the ms until its window would admit the event (a 429's `Retry-After`). */
  admitsInMs?: number;
}

const NOTHING: Matched = Object.freeze({ hit: null, afterCommit: null, reverse: null });

const fresh = (scenario: Scenario): Active => ({
  scenario,
  overrides: [],
  counters: [],
  ordinals: new Map(),
  windows: new Windows(),
});

/**
 * What the rules of a kind read of an event: its party (a rule scoped to a client or business, or counting per
 * client or business), an HTTP request's body (`match.body`), and the client a sign-in names by its email (a rule
 * counting per client, which counts a sign-in for it).
 */
export interface Needs {
  party: boolean;
  body: boolean;
  signIn: boolean;
}

function needsOf(rules: readonly ScenarioRule[], on: ScenarioRule['on']): Needs {
  let party = false;
  let body = false;
  let signIn = false;
  for (const r of rules) {
    if (r.on !== on) continue;
    const m = r.match;
    const counting = m.over !== undefined && m.over.per !== 'sandbox';
    party ||= m.clientId !== undefined || m.businessId !== undefined || counting;
    body ||= m.body !== undefined;
    signIn ||= counting && (m.over?.per ?? 'client') === 'client';
  }
  return { party, body, signIn };
}

/** Money sent out: single transfers and bulk items share the windows of their rules (a business's limits). */
const MONEY_OUT: ReadonlySet<ScenarioRule['on']> = new Set(['transfer', 'bulk.item']);

/** Whose events a rule's window counts together: its `per`, else a client's requests and a business's money. */
function windowKey(rule: ScenarioRule, event: ScenarioEvent): string {
  const per = rule.match.over?.per ?? (rule.on === 'http' || rule.on === 'error' ? 'client' : 'business');
  if (per === 'client') return `c:${event.clientId ?? event.signingIn ?? ''}`;
  if (per === 'business') return `b:${event.businessId ?? ''}`;
  return '';
}

/**
 * The failure rules in force. They start as the start-up scenario; a runtime choice replaces them, overrides go
 * in front of them, and a reset brings the start-up scenario back, with every rule's counters and every ordinal
 * at zero (msw's
 * model: handlers, `use()`, `resetHandlers()`). A request may choose a ready scenario for itself alone with
 * the `x-sandbox-scenario` header; each ready scenario then keeps its own counters.
 */
export class ScenarioController {
  private active: Active;
  private readonly perRequest = new Map<string, Active>();
  private holds: (() => void)[] = [];
  private draining = 0;

  constructor(
    private readonly startup: Scenario,
    readonly library: ScenarioLibrary,
    /** The seed of scenarios that do not set their own. */
    private readonly defaultSeed: number,
    /** The sandbox clock, ms: what `match.between` and `match.over` read. */
    private readonly now: () => number = Date.now,
  ) {
    this.active = fresh(startup);
    this.activeRules = [...startup.rules];
    this.activeConditions = this.activeRules.map(conditionsFor);
  }

  /** The active rules, overrides first. */
  rules(): ScenarioRule[] {
    return this.activeRules;
  }

  /** Kept with `active`: the HTTP hook asks on every request. */
  private activeRules: ScenarioRule[];

  private activate(next: Active): void {
    this.active = next;
    this.activeRules = [...next.overrides, ...next.scenario.rules];
    this.activeConditions = this.activeRules.map(conditionsFor);
    this.activeNeeds = new Map();
  }

  /** Each active rule's conditions made once, in their order (the overrides' first, as with `overridesOnly`). */
  private activeConditions: Conditions[] = [];

  /** What `GET /__sandbox/scenario` shows. */
  describe() {
    const { scenario, overrides } = this.active;
    return {
      startup: this.startup.name,
      name: scenario.name,
      description: scenario.description,
      seed: scenario.seed ?? this.defaultSeed,
      overrides,
      rules: this.rules(),
    };
  }

  /** Makes `scenario` the active one (overrides and counters start afresh) and lets held items go. */
  set(scenario: Scenario): void {
    this.activate(fresh(scenario));
    this.release();
  }

  /** Puts rules in front of the active ones. */
  use(rules: ScenarioRule[]): void {
    this.activate({
      ...this.active,
      overrides: [...rules, ...this.active.overrides],
      counters: [],
      ordinals: new Map(),
      windows: new Windows(),
    });
  }

  /**
   * Whether the rules in force are other than the start-up ones (a scenario set, rules put in front): with
   * `--upstream`, only rules a tester chose apply before the real bank.
   */
  changed(): boolean {
    return this.active.scenario !== this.startup || this.active.overrides.length > 0;
  }

  /** Whether the start-up scenario is still the active one (rules may have been put in front of it). */
  startupActive(): boolean {
    return this.active.scenario === this.startup;
  }

  /** The rules in force now, with their counters and ordinals, for `restore()`. */
  save(): SavedRules {
    return { active: this.active, perRequest: new Map(this.perRequest) };
  }

  /** Puts back what `save()` took (a reset the disk refused leaves the sandbox as it was). */
  restore(saved: SavedRules): void {
    this.activate(saved.active);
    this.perRequest.clear();
    for (const [name, state] of saved.perRequest) this.perRequest.set(name, state);
  }

  /** Back to the start-up scenario. */
  reset(): void {
    this.set(this.startup);
    this.perRequest.clear();
  }

  /**
   * The effect of the first rule that applies to `event`, counting it; null when none does. `chosen` names a
   * ready scenario picked by the request instead of the active one. `fired` hears which rule applied: the
   * scenario's name and the rule's 0-based index among the rules in force (`GET /__sandbox/scenario`'s `rules`,
   * overrides first), for the request journal.
   */
  check(event: ScenarioEvent, chosen?: string, fired?: (rule: FiredRule) => void): RuleEffect | null {
    const hit = this.match(event, chosen);
    if (!hit) return null;
    fired?.(hit.rule);
    return hit.effect;
  }

  /**
   * `check`, answering the effect together with the rule that made it: a caller that acts on the rule (a dropped
   * webhook names it in its log line) has it whenever it has an effect, and the type says so.
   */
  match(event: ScenarioEvent, chosen?: string): Hit | null {
    return this.matchAll(event, chosen).hit;
  }

  /**
   * `match`, with the rules that rode along on the way to the winner (an answer lost after the commit, a reversal
   * later: see `ridesAlong`), the first of each kind. `fired` hears each rule that applied, the winner last.
   */
  matchAll(event: ScenarioEvent, chosen?: string, fired?: (rule: FiredRule) => void): Matched {
    const state = chosen === undefined ? this.active : this.perRequestState(chosen);
    if (!state) return NOTHING;
    // The overrides come first among the rules in force: alone, they keep their indices (and counters).
    const rules =
      state !== this.active ? state.scenario.rules : event.overridesOnly ? state.overrides : this.rules();
    const seed = state.scenario.seed ?? this.defaultSeed;
    const at = this.now();
    // The event is the caller's own, made for this call: its time is set on it rather than on a copy of it.
    event.at = at;
    const timed = event;
    const { windows } = state;
    const made = state === this.active ? this.activeConditions : undefined;
    const { match, conditionsMet, riders } = firstMatch(
      rules,
      timed,
      state.counters,
      seed,
      made,
      (index, rule) =>
        rule.match.over
          ? windows.holds(index, rule.match.over, windowKey(rule, timed), at, timed.amount ?? 0)
          : true,
    );
    // Requests and webhook attempts count as they come, but for the rule that answered one; money counts once it
    // went out (`settled`).
    if (!MONEY_OUT.has(event.on))
      for (const index of conditionsMet) {
        const rule = rules[index];
        if (rule?.match.over && index !== match?.index)
          windows.record(index, rule.match.over, windowKey(rule, timed), at, 0);
      }
    const bump = (i: number, key: keyof RuleCounters) => {
      const c = state.counters[i] ?? { seen: 0, applied: 0 };
      state.counters[i] = { ...c, [key]: c[key] + 1 };
    };
    for (const i of conditionsMet) bump(i, 'seen');
    if (!match && riders.length === 0) return NOTHING;
    const hitOf = ({ index, rule }: { index: number; rule: ScenarioRule }): Hit => {
      bump(index, 'applied');
      const hit = { effect: rule.effect, rule: { name: state.scenario.name, rule: index } };
      fired?.(hit.rule);
      return hit;
    };
    let afterCommit: Hit | null = null;
    let reverse: Hit | null = null;
    for (const rider of riders) {
      const hit = hitOf(rider);
      if (rider.rule.effect.after === 'commit') afterCommit ??= hit;
      if (rider.rule.effect.reverse !== undefined) reverse ??= hit;
    }
    const over = match?.rule.match.over;
    const admitsInMs =
      match && over
        ? windows.admitsIn(match.index, over, windowKey(match.rule, timed), at, timed.amount ?? 0)
        : undefined;
    return {
      hit: match ? hitOf(match) : null,
      afterCommit,
      reverse,
      ...(admitsInMs === undefined ? {} : { admitsInMs }),
    };
  }

  /**
   * A transfer or bulk item went out (`event` as it was matched): it counts in the windows of every rule with
   * `match.over` on money sent out whose conditions hold for it, single transfers and bulk items together. A
   * refused one counts in none: `count` and `amount` count what succeeded.
   */
  settled(event: ScenarioEvent, chosen?: string): void {
    const state = chosen === undefined ? this.active : this.perRequestState(chosen);
    if (!state) return;
    const rules = state === this.active ? this.rules() : state.scenario.rules;
    const at = this.now();
    rules.forEach((rule, index) => {
      const over = rule.match.over;
      if (!over || !MONEY_OUT.has(rule.on) || !conditionsHold(rule, { ...event, on: rule.on, at })) return;
      state.windows.record(index, over, windowKey(rule, event), at, event.amount ?? 0);
    });
  }

  /** Events the windows hold, over every scenario in force: bounded by the windows, whatever the calls. */
  windowEvents(): number {
    let n = this.active.windows.size;
    for (const state of this.perRequest.values()) n += state.windows.size;
    return n;
  }

  /**
   * The next ordinal of `subject` (a kind of event and its scope: `transfer:<businessId>`, `batch:<businessId>`,
   * `delivery:<businessId>`, `http:<METHOD> <route>`): 0 for its first event since the rules in force were
   * chosen (a scenario set, rules put in front, a reset), then 1, 2... Draws are keyed on these, so the same
   * sequence of calls draws the same whatever references the client makes up or in what order concurrent work
   * finishes. `chosen` counts in a ready scenario a request picked for itself.
   */
  ordinal(subject: string, chosen?: string): number {
    const state = chosen === undefined ? this.active : this.perRequestState(chosen);
    if (!state) return 0;
    const next = state.ordinals.get(subject) ?? 0;
    state.ordinals.set(subject, next + 1);
    return next;
  }

  /** The seed the draws of the rules in force start from (or of the ready scenario a request picked). */
  seed(chosen?: string): number {
    const state = chosen === undefined ? this.active : this.perRequestState(chosen);
    return state?.scenario.seed ?? this.defaultSeed;
  }

  /**
   * What the rules of this kind in force (the active ones, or the ready scenario a request picked) read of an event:
   * its party (a rule scoped to a client or business, or one counting per client or business with `over`), and an
   * HTTP request's body (`match.body`). Only then is the party looked up, or the body read first.
   */
  needs(on: ScenarioRule['on'], chosen?: string): Needs {
    if (chosen !== undefined) return needsOf(this.library.get(chosen)?.rules ?? [], on);
    let known = this.activeNeeds.get(on);
    if (!known) {
      known = needsOf(this.activeRules, on);
      this.activeNeeds.set(on, known);
    }
    return known;
  }

  /** What `needs` answered for the active rules, by kind: asked on every request. */
  private activeNeeds = new Map<ScenarioRule['on'], Needs>();

  /** Whether any active rule is of this kind (so a hook with nothing to do costs nothing). */
  has(on: ScenarioRule['on']): boolean {
    return this.activeRules.some((r) => r.on === on);
  }

  /**
   * A promise that resolves when held items are let go (`drain`, a scenario change, reset). While a drain runs
   * nothing is held, or items that reach their turn during it would wait for a drain that waits for them.
   */
  held(): Promise<void> {
    if (this.draining > 0) return Promise.resolve();
    return new Promise((resolve) => this.holds.push(resolve));
  }

  /** Runs `work` (a drain) with nothing held, letting go of what is held now. */
  async whileDraining<T>(work: () => Promise<T>): Promise<T> {
    this.draining++;
    this.release();
    try {
      return await work();
    } finally {
      this.draining--;
    }
  }

  /** Lets every held item go. */
  release(): void {
    for (const resolve of this.holds.splice(0)) resolve();
  }

  private perRequestState(name: string): Active | undefined {
    let state = this.perRequest.get(name);
    if (!state) {
      const scenario = this.library.get(name);
      if (!scenario) return undefined;
      state = fresh(scenario);
      this.perRequest.set(name, state);
    }
    return state;
  }
}
