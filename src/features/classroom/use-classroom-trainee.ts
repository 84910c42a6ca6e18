import { useQuery } from '@tanstack/react-query';
import { TraineeViewSchema } from './classroom-api.ts';

/** True when this browser is a trainee of a running classroom (the nav then offers the exercises). */
export function useClassroomTrainee(): boolean {
  const q = useQuery({
    queryKey: ['classroom-me'],
    queryFn: async () => {
      const res = await fetch('/classroom/me', { headers: { accept: 'application/json' } });
      // Outside classroom mode the address is the console's page (HTML): not a trainee.
      if (!res.ok || !(res.headers.get('content-type') ?? '').includes('json')) return false;
      return TraineeViewSchema.safeParse(await res.json()).success;
    },
    staleTime: 60_000,
    retry: false,
  });
  return q.data === true;
}
