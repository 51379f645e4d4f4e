/** The probe's value when it resolves within `ms`; rejects when it fails or is too slow. */
export async function valueWithin<T>(probe: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([probe, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** True when the probe resolves within `ms`; false when it fails or is too slow. */
export function withTimeoutOf(probe: Promise<unknown>, ms: number): Promise<boolean> {
  return valueWithin(probe, ms).then(
    () => true,
    () => false,
  );
}
