export { Workbench, type WorkbenchNavigation, type WorkbenchProps } from './workbench.tsx';
export { callbackUrl } from './callbacks-store.ts';
