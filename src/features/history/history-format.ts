export function plural(n: number): string {
  return n === 1 ? '1 entry' : `${n} entries`;
}

export function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
