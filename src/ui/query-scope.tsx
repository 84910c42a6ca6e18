import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';

/**
 * The TanStack Query client of the pages that read kept data through it (history's list, cached
 * between visits). It is created when the first of them loads, so the first form loads without
 * TanStack; one client for all of them, so their caches are shared.
 */
const client = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 }, mutations: { retry: false } },
});

/** `Component` inside the shared query client: for the lazy factories of the pages that use it. */
export function withQueries<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithQueries(props: P) {
    return (
      <QueryClientProvider client={client}>
        <Component {...props} />
      </QueryClientProvider>
    );
  }
  return WithQueries;
}
