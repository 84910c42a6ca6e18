import { useSyncExternalStore } from 'react';

const media = () => window.matchMedia('(prefers-color-scheme: dark)');

function isDark(): boolean {
  const forced = document.documentElement.dataset.theme;
  if (forced === 'dark') return true;
  if (forced === 'light') return false;
  return media().matches;
}

function subscribe(cb: () => void): () => void {
  const mq = media();
  mq.addEventListener('change', cb);
  const mo = new MutationObserver(cb);
  mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => {
    mq.removeEventListener('change', cb);
    mo.disconnect();
  };
}

/** True when the page shows its dark theme (chosen, or from the system). */
export function useDarkTheme(): boolean {
  return useSyncExternalStore(subscribe, isDark);
}
