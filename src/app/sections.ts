import type { Route } from './routes.ts';

/** The sections in the top bar, with the route kinds that count as being in each. */
export const SECTIONS: readonly { to: string; label: string; kinds: readonly Route['kind'][] }[] = [
  { to: '/', label: 'Workbench', kinds: ['home', 'op'] },
  { to: '/history', label: 'History', kinds: ['history'] },
  { to: '/saved', label: 'Saved', kinds: ['saved'] },
  { to: '/keys', label: 'Keys', kinds: ['keys'] },
  { to: '/scenarios', label: 'Scenarios', kinds: ['scenarios'] },
  { to: '/flows', label: 'Flows', kinds: ['flows'] },
  { to: '/export', label: 'Export', kinds: ['export'] },
  { to: '/debugger', label: 'Debugger', kinds: ['debugger', 'capsule'] },
  { to: '/teach', label: 'Teaching', kinds: ['teach'] },
];
