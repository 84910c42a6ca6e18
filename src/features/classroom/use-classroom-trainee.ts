import { consoleMode } from '../../browser/console-mode.ts';
import { useResource } from '../../ui/use-async.ts';

/**
 * True when this browser is a trainee of a running classroom (the nav then offers the exercises).
 * Outside classroom mode nothing is asked; in it, `/classroom/status` answers 200 whether or not
 * this browser has joined (so the console stays free of refused requests).
 */
export function useClassroomTrainee(): boolean {
  const classroom = consoleMode() === 'classroom';
  // On the first page: the schema (and the classroom code under it) loads only in classroom mode.
  const q = useResource(async () => {
    const { readStatus } = await import('./classroom-api.ts');
    return (await readStatus()).joined;
  }, classroom);
  return q.data === true;
}
