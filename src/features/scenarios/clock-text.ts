const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const DAY = 24 * H;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** How far a merchant's clock is ahead, as a person reads it: "31 days", "2 h 5 min", "40 s". */
export function aheadText(ms: number): string {
  const t = Math.max(0, Math.round(ms / S) * S);
  if (t >= DAY) {
    const days = Math.floor(t / DAY);
    const hours = Math.floor((t % DAY) / H);
    return hours > 0 ? `${plural(days, 'day')} ${hours} h` : plural(days, 'day');
  }
  if (t >= H) {
    const m = Math.floor((t % H) / MIN);
    return m > 0 ? `${Math.floor(t / H)} h ${m} min` : `${Math.floor(t / H)} h`;
  }
  if (t >= MIN) {
    const s = Math.floor((t % MIN) / S);
    return s > 0 ? `${Math.floor(t / MIN)} min ${s} s` : `${Math.floor(t / MIN)} min`;
  }
  return `${t / S} s`;
}
