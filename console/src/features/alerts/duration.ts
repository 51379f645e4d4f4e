const UNITS: ReadonlyArray<[number, string]> = [
  [86_400, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** Seconds in words, at most two units: 3600 -> "1 hour", 5400 -> "1 hour 30 minutes", 0 -> "no cooldown". */
export function formatDuration(seconds: number): string {
  if (seconds <= 0) return 'no cooldown';
  const parts: string[] = [];
  let rest = Math.round(seconds);
  for (const [size, unit] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0 && parts.length < 2) parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
    rest -= n * size;
  }
  return parts.join(' ');
}
