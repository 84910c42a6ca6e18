import type { MouseEvent } from 'react';
import { Cell } from '../core/store.ts';
import { useStore } from '../ui/use-store.ts';
export { opHref, parseRoute, type Route } from './routes.ts';

const place = new Cell({ pathname: location.pathname, state: history.state as unknown, key: 0 });

function refresh(): void {
  const key = place.getSnapshot().key + 1;
  place.set({ pathname: location.pathname, state: history.state as unknown, key });
}

window.addEventListener('popstate', refresh);

export function useLocation(): { pathname: string; state: unknown; key: number } {
  return useStore(place);
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
