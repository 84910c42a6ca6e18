export { Workbench, type WorkbenchNavigation, type WorkbenchProps } from './workbench/workbench.tsx';
export { callbackUrl } from './callbacks/callbacks-store.ts';
