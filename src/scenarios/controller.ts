import type { FiredRule, RuleEffect, Scenario, ScenarioRule } from '../contract/scenarios.js';
import type { ScenarioLibrary } from './library.js';
import { firstMatch, type RuleCounters, type ScenarioEvent } from './matcher.js';

interface Active {
  scenario: Scenario;
  /** Rules put in front of the scenario's own (msw's `use`), newest first. */
  overrides: ScenarioRule[];
  counters: RuleCounters[];
  /** How many events of each subject (`transfer:<businessId>`, ...) were counted since these rules were chosen. */
  ordinals: Map<string, number>;
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
}

const NOTHING: Matched = Object.freeze({ hit: null, afterCommit: null, reverse: null });

const fresh = (scenario: Scenario): Active => ({
  scenario,
  overrides: [],
  counters: [],
  ordinals: new Map(),
});

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
  ) {
    this.active = fresh(startup);
    this.activeRules = [...startup.rules];
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
  }

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
    });
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
    const rules = state === this.active ? this.rules() : state.scenario.rules;
    const seed = state.scenario.seed ?? this.defaultSeed;
    const { match, conditionsMet, riders } = firstMatch(rules, event, state.counters, seed);
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
    return { hit: match ? hitOf(match) : null, afterCommit, reverse };
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
   * Whether a rule of this kind in force (the active ones, or the ready scenario a request picked) is scoped to a
   * client or a business: only then does a request's party need looking up.
   */
  scoped(on: ScenarioRule['on'], chosen?: string): boolean {
    const rules = chosen === undefined ? this.activeRules : (this.library.get(chosen)?.rules ?? []);
    return rules.some(
      (r) => r.on === on && (r.match.clientId !== undefined || r.match.businessId !== undefined),
    );
  }

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
