import { useEffect, useState } from 'react';

/**
 * Runs `fn` once the page is idle (at the latest after `timeoutMs`), so what the first form does not
 * need loads after it is usable instead of competing with it; returns a cancel.
 */
export function whenIdle(fn: () => void, timeoutMs = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 200);
  return () => clearTimeout(id);
}

let idleOnce = false;

/** False until the page has been idle once (then true for every later mount, too). */
export function useIdle(): boolean {
  const [idle, setIdle] = useState(idleOnce);
  useEffect(() => {
    if (idle) return;
    return whenIdle(() => {
      idleOnce = true;
      setIdle(true);
    });
  }, [idle]);
  return idle;
}
