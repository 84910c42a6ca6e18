import { ProfilesProvider, type ProfilesPrefetch } from '../features/profiles/index.ts';
import { Shell } from './shell.tsx';
import './app.css';

// No TanStack Query provider here: the pages that use it bring the shared client when they load
// (src/ui/query-scope.tsx), so the first form does not wait for TanStack.
export function App({ prefetch }: { prefetch?: ProfilesPrefetch }) {
  return (
    <ProfilesProvider prefetch={prefetch}>
      <Shell />
    </ProfilesProvider>
  );
}
