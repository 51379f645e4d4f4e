/**
 * Burn rate over a range: credits consumed per day, and how many days the balance lasts at
 * that rate (null when nothing was consumed: the balance does not run down).
 */
export function burnRate(consumed: number, rangeMs: number, balance: number): { perDay: number; daysLeft: number | null } {
  const days = Math.max(rangeMs / 86_400_000, 1 / 24);
  const perDay = consumed / days;
  return { perDay, daysLeft: perDay > 0 ? Math.max(0, balance) / perDay : null };
}
