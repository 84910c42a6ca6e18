export { ProfilesProvider, useProfileActions, useSigningContext } from './profiles-provider.tsx';
// ProfileBar is imported from './profile-bar.tsx' by path, lazily: it is not on the first load.
export { settleProfilesPrefetch, startProfilesPrefetch, type ProfilesPrefetch } from './prefetch.ts';
