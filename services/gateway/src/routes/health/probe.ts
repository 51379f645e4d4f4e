/** True when the probe resolves within `ms`; false when it fails or is too slow. */
export async function withTimeoutOf(probe: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([probe, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), ms)))]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
