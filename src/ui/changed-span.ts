/** The one span of text that differs between two strings: prev[start, endPrev) became next[start, endNext). */
export interface ChangedSpan {
  start: number;
  endPrev: number;
  endNext: number;
}

/**
 * The smallest single replacement that turns `prev` into `next` (common prefix and suffix kept),
 * widened so it never starts or ends between the \r and \n of a CRLF; null when they are equal.
 */
export function changedSpan(prev: string, next: string): ChangedSpan | null {
  if (prev === next) return null;
  const max = Math.min(prev.length, next.length);
  let start = 0;
  while (start < max && prev.charCodeAt(start) === next.charCodeAt(start)) start++;
  let endPrev = prev.length;
  let endNext = next.length;
  while (
    endPrev > start &&
    endNext > start &&
    prev.charCodeAt(endPrev - 1) === next.charCodeAt(endNext - 1)
  ) {
    endPrev--;
    endNext--;
  }
  const splitsCrlf = (s: string, at: number) =>
    at > 0 && s.charCodeAt(at - 1) === 13 && s.charCodeAt(at) === 10;
  if (splitsCrlf(prev, start) || splitsCrlf(next, start)) start--;
  if (splitsCrlf(prev, endPrev) || splitsCrlf(next, endNext)) {
    endPrev++;
    endNext++;
  }
  return { start, endPrev, endNext };
}
