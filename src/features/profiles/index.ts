export { ProfilesProvider, useProfileActions, useSigningContext } from './profiles-provider.tsx';
export { ProfileBar } from './profile-bar.tsx';
export { settleProfilesPrefetch, startProfilesPrefetch, type ProfilesPrefetch } from './prefetch.ts';
