export type { ExportsPageProps } from './exports-page.tsx';
export { RequestTools, type RequestToolsProps } from './request-tools.tsx';
export { readShareFragment, type ShareFragment } from './share-fragment.ts';
