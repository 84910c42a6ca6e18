export { downloadText } from '../../browser/download.ts';
