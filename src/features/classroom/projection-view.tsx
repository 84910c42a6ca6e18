import { useEffect, useRef, useState } from 'react';
import { TimelineSchema, type Timeline } from '../../contracts/trainee-timeline.ts';
import { followEvents, trainerRefusal, type Live } from './classroom-api.ts';

const clock = (at: number) => new Date(at).toISOString().slice(11, 19);

/**
 * One trainee's attempt timeline for the big screen: their requests, refusals and the diagnosis
 * engine's finding on each, newest first, live. Nothing secret is in it (the classroom keeps no
 * request bodies); the variants and expected answers stay on the trainer's own page.
 */
export function ProjectionView({ traineeId, onClose }: { traineeId: string; onClose: () => void }) {
  const [live, setLive] = useState<Live<Timeline>>({ kind: 'connecting' });
  const close = useRef<HTMLButtonElement>(null);
  useEffect(
    () =>
      followEvents(
        `/classroom/trainer/timeline/${encodeURIComponent(traineeId)}/events`,
        trainerRefusal,
        TimelineSchema,
        setLive,
      ),
    [traineeId],
  );
  useEffect(() => {
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const t = live.kind === 'live' ? live.data : null;
  return (
    <div className="cl-projection" role="dialog" aria-modal="true" aria-labelledby="cl-projection-title">
      <header>
        <h2 id="cl-projection-title">{t ? `${t.trainee.name}’s attempts` : 'Attempts'}</h2>
        <span role="status" className="cl-note">
          {live.kind === 'refused'
            ? live.message
            : !t
              ? 'connecting…'
              : live.kind === 'live' && live.lost
                ? 'connection lost, reconnecting…'
                : `${t.total} ${t.total === 1 ? 'request' : 'requests'} · updated live`}
        </span>
        <button ref={close} type="button" className="cl-button" onClick={onClose}>
          Close the projection
        </button>
      </header>
      {t && t.entries.length === 0 ? <p>No request yet.</p> : null}
      {t ? (
        <ol className="cl-timeline" aria-label="Attempt timeline">
          {t.entries.map((e) => (
            <li key={e.id} data-accepted={e.accepted}>
              <span className="cl-muted">{clock(e.at)}</span> <code>{e.operation ?? '?'}</code>{' '}
              <span className="cl-muted">{e.scheme ?? ''}</span>{' '}
              {e.accepted ? (
                <strong className="cl-ok">accepted</strong>
              ) : (
                <strong className="cl-error">
                  refused {e.httpStatus}
                  {e.errorCode ? ` ${e.errorCode}` : ''}
                </strong>
              )}
              {e.mistake ? <> · diagnosis: {e.mistake.label}</> : null}
              {e.cause === 'trainer-restore' ? <> · caused by the trainer’s key restore</> : null}
              {!e.accepted && e.errorMessage ? (
                <>
                  <br />
                  <span className="cl-muted">{e.errorMessage}</span>
                </>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
