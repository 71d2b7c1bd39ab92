import type { Over } from '../contract/scenarios.js';

/** One event a window counts: when it happened on the sandbox clock, and its amount (a transfer's; else 0). */
interface Slot {
  at: number;
  amount: number;
}

/**
 * The sliding windows of the rules with `match.over`, one list of events per rule and per `per` key (a client, a
 * business, or the sandbox), oldest first. An event exactly `windowMs` before another is outside that one's window.
 * Each list is pruned of what has left the window whenever it is read or written, and a count-only window keeps no
 * more than `count` events (the most recent ones are all that decide), so a rule of 60 a minute holds at most 60
 * events per key however many calls came.
 */
export class Windows {
  private readonly lists = new Map<number, Map<string, Slot[]>>();

  /** Whether the rule's window at `now` holds: `count` earlier events or more, or amounts past `amount` with this one. */
  holds(index: number, over: Over, key: string, now: number, amount: number): boolean {
    const slots = this.pruned(index, over, key, now);
    if (over.count !== undefined && slots.length >= over.count) return true;
    if (over.amount === undefined) return false;
    let total = amount;
    for (const slot of slots) total += slot.amount;
    return total > over.amount;
  }

  /** Counts an event in the rule's window. */
  record(index: number, over: Over, key: string, now: number, amount: number): void {
    let byKey = this.lists.get(index);
    if (!byKey) {
      byKey = new Map();
      this.lists.set(index, byKey);
    }
    let slots = byKey.get(key);
    if (!slots) {
      slots = [];
      byKey.set(key, slots);
    }
    slots.push({ at: now, amount });
    this.prune(slots, over, now);
  }

  /**
   * The ms from `now` until the rule's window would admit the next event: until enough of its events have left it
   * (at least 1 ms; 0 when it admits one now).
   */
  admitsIn(index: number, over: Over, key: string, now: number, amount: number): number {
    const slots = this.pruned(index, over, key, now);
    let wait = 0;
    if (over.count !== undefined && slots.length >= over.count) {
      const leaving = slots[slots.length - over.count];
      if (leaving) wait = leaving.at + over.windowMs - now;
    }
    if (over.amount !== undefined) {
      let total = amount;
      for (const slot of slots) total += slot.amount;
      for (const slot of slots) {
        if (total <= over.amount) break;
        total -= slot.amount;
        wait = Math.max(wait, slot.at + over.windowMs - now);
      }
    }
    return wait;
  }

  /** Events held, over every rule and key: what the bench reports of a window's memory. */
  get size(): number {
    let n = 0;
    for (const byKey of this.lists.values()) for (const slots of byKey.values()) n += slots.length;
    return n;
  }

  private pruned(index: number, over: Over, key: string, now: number): Slot[] {
    const byKey = this.lists.get(index);
    const slots = byKey?.get(key);
    if (!byKey || !slots) return [];
    this.prune(slots, over, now);
    if (slots.length === 0) byKey.delete(key);
    return slots;
  }

  private prune(slots: Slot[], over: Over, now: number): void {
    let gone = 0;
    while (gone < slots.length && (slots[gone] as Slot).at <= now - over.windowMs) gone++;
    // Only the most recent `count` decide a count-only window.
    if (over.amount === undefined && over.count !== undefined)
      gone = Math.max(gone, slots.length - over.count);
    if (gone > 0) slots.splice(0, gone);
  }
}
