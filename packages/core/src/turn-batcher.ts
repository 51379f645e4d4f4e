interface Waiter<I, R> {
  item: I;
  resolve(result: R): void;
  reject(err: unknown): void;
}

/**
 * Collects the calls made during one turn of the event loop and runs them together at the end
 * of it (setImmediate): under concurrency, the requests that arrived together share one round
 * trip to Postgres or Redis; a lone call waits only for the turn to end. The batch starts after
 * every one of its calls was made, so each sees a state at least as recent as its own call,
 * as if it had run alone. `run` answers one result per item, in order; its failure is every
 * item's.
 */
export class TurnBatcher<I, R> {
  private waiting: Waiter<I, R>[] = [];
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<R[]>,
    private readonly maxBatch = 500,
  ) {}

  add(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.waiting.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    const batch = this.waiting;
    if (!batch.length) return;
    this.waiting = [];
    let results: Promise<R[]>;
    try {
      results = this.run(batch.map((w) => w.item));
    } catch (err) {
      results = Promise.reject(err);
    }
    results.then(
      (values) => batch.forEach((w, i) => w.resolve(values[i]!)),
      (err: unknown) => batch.forEach((w) => w.reject(err)),
    );
  }
}
