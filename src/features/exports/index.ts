export type { ExportsPageProps } from './exports-page.tsx';
export { RequestTools, type RequestToolsProps } from './request-tools.tsx';
// readShareFragment is not re-exported: the app imports share-fragment.ts only when there is a fragment.
export type { ShareFragment } from './share-fragment.ts';
