/**
 * Ids waiting in line, first in first out, in an array that drops the ids taken from its front now and then rather
 * than one by one (`Array.prototype.shift` moves the whole backlog each time). Eight bytes an id waiting.
 */
export class IdLine {
  private ids: (string | undefined)[] = [];
  /** The position of the next id to take. */
  private head = 0;

  get size(): number {
    return this.ids.length - this.head;
  }

  push(id: string): void {
    this.ids.push(id);
  }

  /** The oldest id, taken out of the line; undefined when it is empty. */
  take(): string | undefined {
    if (this.head === this.ids.length) return undefined;
    const id = this.ids[this.head];
    this.ids[this.head++] = undefined;
    if (this.head === this.ids.length) {
      // Empty again, as it is most of the time (an id taken as soon as it came): the same array, from its start.
      this.ids.length = 0;
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.ids.length) {
      this.ids = this.ids.slice(this.head);
      this.head = 0;
    }
    return id;
  }

  clear(): void {
    this.ids = [];
    this.head = 0;
  }
}
