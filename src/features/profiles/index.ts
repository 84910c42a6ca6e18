export { ProfilesProvider, useProfileActions, useSigningContext } from './profiles-provider.tsx';
export { ProfileBar } from './profile-bar.tsx';
export { startProfilesPrefetch, type ProfilesPrefetch } from './prefetch.ts';
