export { DebuggerPage, type DebuggerPageProps } from './debugger-page.tsx';
