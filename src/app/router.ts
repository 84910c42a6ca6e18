import { useSyncExternalStore, type MouseEvent } from 'react';
export { opHref, parseRoute, type Route } from './routes.ts';

const listeners = new Set<() => void>();
let snapshot = { pathname: location.pathname, state: history.state as unknown, key: 0 };

function refresh(): void {
  snapshot = { pathname: location.pathname, state: history.state as unknown, key: snapshot.key + 1 };
  for (const l of listeners) l();
}

window.addEventListener('popstate', refresh);

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useLocation(): { pathname: string; state: unknown; key: number } {
  return useSyncExternalStore(subscribe, () => snapshot);
}

export function navigate(to: string, state: unknown = null, replace = false): void {
  if (replace) history.replaceState(state, '', to);
  else history.pushState(state, '', to);
  refresh();
  if (!replace) window.scrollTo({ top: 0 });
}

export function onLinkClick(e: MouseEvent<HTMLAnchorElement>, to: string): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(to);
}
