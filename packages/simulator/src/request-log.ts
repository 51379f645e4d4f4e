/**
 * Bounded request log. A ring buffer rather than push/shift: at the bench's request rates an
 * Array.shift over 10,000 entries on every request would cost more than serving the page.
 */
import type { RequestLogEntry } from './types';

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  /** Index of the oldest entry once the buffer is full. */
  private head = 0;

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('logLimit must be a positive integer');
  }

  push(entry: RequestLogEntry): void {
    if (this.entries.length < this.limit) {
      this.entries.push(entry);
      return;
    }
    this.entries[this.head] = entry;
    this.head = (this.head + 1) % this.limit;
  }

  /** Oldest first. */
  list(): RequestLogEntry[] {
    return this.head === 0 ? this.entries.slice() : [...this.entries.slice(this.head), ...this.entries.slice(0, this.head)];
  }

  get size(): number {
    return this.entries.length;
  }

  reset(): void {
    this.entries = [];
    this.head = 0;
  }
}
