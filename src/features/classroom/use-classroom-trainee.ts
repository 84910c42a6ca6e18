import { useResource } from '../../shared/ui/use-async.ts';

/** True when this browser is a trainee of a running classroom (the nav then offers the exercises). */
export function useClassroomTrainee(): boolean {
  // On the first page: the schema (and the classroom code under it) loads only in classroom mode.
  const q = useResource(async () => {
    const res = await fetch('/classroom/me', { headers: { accept: 'application/json' } });
    // Outside classroom mode the address is the console's page (HTML): not a trainee.
    if (!res.ok || !(res.headers.get('content-type') ?? '').includes('json')) return false;
    const { TraineeViewSchema } = await import('./classroom-api.ts');
    return TraineeViewSchema.safeParse(await res.json()).success;
  });
  return q.data === true;
}
