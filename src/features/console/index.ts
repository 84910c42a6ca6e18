export { Workbench, type WorkbenchNavigation, type WorkbenchProps } from './workbench.tsx';
