import './ui.css';
export { CodeView, loadMonaco, type CodeViewProps } from './code-view.tsx';
export { ConfirmDialog } from './confirm-dialog.tsx';
export { CopyButton } from './copy-button.tsx';
export { InlineCode } from './inline-code.tsx';
export { RevealToggle } from './reveal-toggle.tsx';
export { useDarkTheme } from './use-dark.ts';
export { useIdle, whenIdle } from './use-idle.ts';
