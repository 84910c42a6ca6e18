export { FlowsPage, flowHref, type FlowsPageProps } from './flows-page.tsx';
export { FLOWS, findFlow } from './flow-definitions.ts';
