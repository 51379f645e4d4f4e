import type { Logger } from '@crawl/observability';

/**
 * Work an anonymous account route does after it has answered: looking the email up, hashing,
 * writing tokens, sending mail. Whether an email has an account must not show in the answer or
 * its timing, and doing the work later is the one way to make both paths take the same time
 * (docs/accounts.md, "No account enumeration"). A task that fails is logged; the user asks
 * again. Shutdown waits for the tasks in flight (`drain`).
 */
export class AfterAnswer {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: Logger) {}

  run(what: string, task: () => Promise<void>): void {
    const running = Promise.resolve()
      .then(task)
      .catch((err) => this.log.warn({ err, what }, 'account work after the answer failed'))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  /** Resolves once every task started so far has ended (tasks they start are waited for too). */
  async drain(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}
