/**
 * A queue that serves its keys (tenants) in turn, each key's items in arrival order: one key's
 * hundreds of waiting items do not hold up another key's first one, which goes after at most
 * one item of each other waiting key. Used where a worker's requests wait for a shared
 * resource (an exit, a parser thread), so that the fairness the crawl queue gives tenants
 * (packages/jobs release-window.ts) is not undone by a FIFO line inside the process.
 */
export class TurnQueue<T> {
  private readonly lines = new Map<string, T[]>();
  /** Keys with waiting items, the next one to serve first. */
  private readonly turns: string[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(key: string, item: T): void {
    const line = this.lines.get(key);
    if (line) line.push(item);
    else {
      this.lines.set(key, [item]);
      this.turns.push(key);
    }
    this.count++;
  }

  /** The item to serve next; it stays queued until `shift`. */
  peek(): T | undefined {
    const key = this.turns[0];
    return key === undefined ? undefined : this.lines.get(key)![0];
  }

  /** Removes and returns the item `peek` gives; its key's turn passes to the next key. */
  shift(): T | undefined {
    const key = this.turns.shift();
    if (key === undefined) return undefined;
    const line = this.lines.get(key)!;
    const item = line.shift();
    this.count--;
    if (line.length) this.turns.push(key);
    else this.lines.delete(key);
    return item;
  }

  /** Empties the queue, returning every item. */
  drain(): T[] {
    const all = [...this.lines.values()].flat();
    this.lines.clear();
    this.turns.length = 0;
    this.count = 0;
    return all;
  }
}
