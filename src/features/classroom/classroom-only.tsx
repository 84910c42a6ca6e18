import type { ComponentType } from 'react';
import { consoleMode } from '../../browser/console-mode.ts';

/**
 * A classroom page, shown only on the classroom's server: elsewhere it says so and asks the
 * server nothing (outside classroom mode nothing calls /classroom/*).
 */
export function classroomOnly<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  return function ClassroomOnly(props: P) {
    if (consoleMode() === 'classroom') return <Page {...props} />;
    return (
      <section>
        <h1>No classroom here</h1>
        <p>
          This console is not running a classroom: the join, exercises and trainer pages are on the server of{' '}
          <code>npm run classroom</code>, at the address the trainer gave.
        </p>
      </section>
    );
  };
}
