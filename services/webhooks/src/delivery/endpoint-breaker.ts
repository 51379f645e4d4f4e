export interface BreakerSettings {
  /** Unanswered attempts in a row (timeouts, refused or reset connections) that pause an endpoint. */
  failures: number;
  /** The first pause; each pause that follows without a success in between doubles it. */
  pauseMs: number;
  /** The longest pause. */
  maxPauseMs: number;
}

/** Endpoints remembered at most; beyond, those not paused are forgotten (they start over). */
const MAX_TRACKED = 10_000;

interface EndpointState {
  /** Unanswered attempts since the last success (or since the endpoint was first seen). */
  unanswered: number;
  /** Pauses since the last success: the next one lasts pauseMs x 2^pauses. */
  pauses: number;
  pausedUntil: number;
}

/**
 * A circuit breaker per endpoint, in this process. An endpoint that stops answering (its
 * attempts time out or its connections fail, `failures` times in a row) is paused: its due
 * deliveries wait until the pause ends instead of each spending an attempt (and, for a
 * timeout, a slot for WEBHOOK_TIMEOUT_MS) on it. When the pause ends, the attempts allowed by
 * the per-endpoint cap probe it; if those go unanswered too, the next pause is twice as long.
 * One success closes the breaker. A receiver answering with an error status is not paused: it
 * answers at once, so it costs the other endpoints nothing, and it keeps its retry schedule.
 */
export class EndpointBreakers {
  private readonly endpoints = new Map<string, EndpointState>();

  constructor(private readonly settings: BreakerSettings) {}

  /**
   * Notes an attempt's outcome (`answered`: the receiver sent a status line). Returns when the
   * pause ends if this outcome pauses the endpoint, else null.
   */
  record(webhookId: string, success: boolean, answered: boolean, now = Date.now()): number | null {
    if (success) {
      this.endpoints.delete(webhookId);
      return null;
    }
    if (answered) return null;
    let state = this.endpoints.get(webhookId);
    if (!state) {
      if (this.endpoints.size >= MAX_TRACKED) this.forgetUnpaused(now);
      state = { unanswered: 0, pauses: 0, pausedUntil: 0 };
      this.endpoints.set(webhookId, state);
    }
    state.unanswered++;
    if (state.unanswered < this.settings.failures || state.pausedUntil > now) return null;
    state.pausedUntil = now + Math.min(this.settings.pauseMs * 2 ** state.pauses, this.settings.maxPauseMs);
    state.pauses++;
    return state.pausedUntil;
  }

  private forgetUnpaused(now: number): void {
    for (const [id, state] of this.endpoints) if (state.pausedUntil <= now) this.endpoints.delete(id);
  }

  isPaused(webhookId: string, now = Date.now()): boolean {
    return this.pausedUntil(webhookId) > now;
  }

  /** When the endpoint's last pause ends (0 if it was never paused). */
  pausedUntil(webhookId: string): number {
    return this.endpoints.get(webhookId)?.pausedUntil ?? 0;
  }

  /** The endpoints paused now: claims leave them out. */
  paused(now = Date.now()): string[] {
    const ids: string[] = [];
    for (const [id, state] of this.endpoints) if (state.pausedUntil > now) ids.push(id);
    return ids;
  }
}
