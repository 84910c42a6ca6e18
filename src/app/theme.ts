import { useEffect, useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_KEY = 'pay-console.theme';
const KEY = THEME_KEY;

function readChoice(): ThemeChoice {
  const v = localStorage.getItem(KEY);
  return v === 'light' || v === 'dark' ? v : 'system';
}

function apply(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

export function initTheme(): void {
  apply(readChoice());
}

/** Dispatched on `window` by whoever sets the theme outside the picker (the command palette). */
export const THEME_CHANGED = 'pay-console-theme';
const CHANGED = THEME_CHANGED;

export function useThemeChoice(): [ThemeChoice, (c: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(readChoice);
  useEffect(() => {
    const follow = () => setChoice(readChoice());
    addEventListener(CHANGED, follow);
    return () => removeEventListener(CHANGED, follow);
  }, []);
  useEffect(() => {
    apply(choice);
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  }, [choice]);
  return [choice, setChoice];
}
