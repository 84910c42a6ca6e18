import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { ProfilesProvider, type ProfilesPrefetch } from '../features/profiles/index.ts';
import { Shell } from './shell.tsx';
import './app.css';

export function App({ prefetch }: { prefetch?: ProfilesPrefetch }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 }, mutations: { retry: false } },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <ProfilesProvider prefetch={prefetch}>
        <Shell />
      </ProfilesProvider>
    </QueryClientProvider>
  );
}
