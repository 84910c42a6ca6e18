export { CapsulePage } from './capsule-page.tsx';
