import { useEffect, useState } from 'react';
import { findOperation, type Operation } from '../../catalog/index.ts';
import type { Place, RequestDraft, SigningRuntime } from '../../model/index.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { browserTransport } from '../../browser/proxy-client.ts';
import { ComparisonView } from './comparison-view.tsx';
import { MistakeSwitches, TeachingSetup, TeachingValues } from './teaching-setup.tsx';
import { TeachingSession } from './teaching-session.ts';
import { WalkthroughView } from './walkthrough-view.tsx';
import './teaching.css';
import { useStore } from '../../ui/use-store.ts';

export interface TeachingPageProps {
  /** The operation to teach on (`v2/sale`); the page's own picker changes it. */
  operationPath: string | null;
  /** The request to start from (e.g. the workbench's current form). */
  draft?: RequestDraft | null;
  context: SigningContext | null;
  /** Where this console runs: the test values point at its return page and this session's inbox. */
  place: Place;
  /** The app's crypto port, nonce source and clock. */
  runtime: SigningRuntime;
  onPickOperation: (path: string) => void;
}

const DEFAULT_PATH = 'v2/sale';

/** The teaching mode: one mistake at a time, side by side with the correct signing, and the walkthroughs. */
export function TeachingPage(props: TeachingPageProps) {
  const path = props.operationPath ?? props.draft?.operation ?? DEFAULT_PATH;
  const op = findOperation(path);
  if (!op) {
    return (
      <section className="teach">
        <h1>Teaching mode</h1>
        <p role="alert">
          No operation is at <code>{path}</code>. Pick one:{' '}
          <button
            type="button"
            className="ui-btn ui-btn-small"
            onClick={() => props.onPickOperation(DEFAULT_PATH)}
          >
            Teach on {DEFAULT_PATH}
          </button>
        </p>
      </section>
    );
  }
  const draftForOp = props.draft && props.draft.operation === op.path ? props.draft : null;
  return <OperationTeaching key={op.path} op={op} {...props} draft={draftForOp} />;
}

function OperationTeaching({
  op,
  draft: given,
  context,
  place,
  runtime,
  onPickOperation,
}: TeachingPageProps & { op: Operation }) {
  const [session] = useState(
    () =>
      new TeachingSession(
        { op, given: given ?? null, context, place },
        { runtime, transport: browserTransport },
      ),
  );
  useEffect(() => session.update({ context, place }), [session, context, place]);
  const s = useStore(session);

  return (
    <section className="teach" aria-labelledby="teach-title">
      <header className="teach-head">
        <h1 id="teach-title">Teaching mode</h1>
        <p>
          Inject one known mistake at a time into the signing of a real request, see how the signing input and
          the signature change, and what the local sandbox answers. Then walk through the scheme step by step
          with the same values.
        </p>
      </header>

      <TeachingSetup s={s} session={session} context={context} onPickOperation={onPickOperation} />
      <TeachingValues s={s} session={session} context={context} fromWorkbench={Boolean(given)} />
      <MistakeSwitches s={s} session={session} context={context} />

      {s.error ? (
        <p className="teach-error" role="alert">
          {s.error}
        </p>
      ) : null}

      {s.teach ? <ComparisonView s={s} teach={s.teach} session={session} context={context} /> : null}

      <WalkthroughView
        walk={s.walk}
        scheme={s.scheme}
        currentPath={op.path}
        step={s.step}
        onStep={(i) => session.goStep(i)}
        onWalk={(p) => (p === op.path ? undefined : onPickOperation(p))}
      />
    </section>
  );
}
