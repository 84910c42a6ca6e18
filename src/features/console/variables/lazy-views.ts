import { lazy } from 'react';

// The variables' views load after the first form (the first page's budget).
export const VariablesPanel = lazy(() =>
  import('./variables-panel.tsx').then((m) => ({ default: m.VariablesPanel })),
);
export const SaveFromAnswer = lazy(() =>
  import('./variables-panel.tsx').then((m) => ({ default: m.SaveFromAnswer })),
);
