export { KeysPage } from './keys-page.tsx';
