import { CAPTURE_FORMAT_LABEL, type CaptureFormat, type ParsedCapture } from '../../capture/index.ts';
import { SCHEME_TITLES } from '../../catalog/index.ts';
import type { Diagnosis } from '../../diagnose/index.ts';

/** What the capture was checked as: an operation and endpoint, or a callback or customer return. */
export function CaptureTarget({ d }: { d: Diagnosis }) {
  if (d.operationPath === 'callback')
    return (
      <>
        a <strong>callback or customer return</strong> (control = status + orderid + merchant_order + key)
      </>
    );
  return (
    <>
      operation <code>{d.operationPath}</code> · {d.endpoint.kind === 'group' ? 'endpoint group' : 'endpoint'}{' '}
      <code>{d.endpoint.id}</code> · {SCHEME_TITLES[d.scheme]}
    </>
  );
}

/** The other formats a capture also reads as, one click each (a wrong guess is one click away). */
export function AlsoReadsAs({
  parsed,
  onReadAs,
}: {
  parsed: ParsedCapture;
  onReadAs: (format: CaptureFormat) => void;
}) {
  if (!parsed.alternatives) return null;
  return (
    <p className="dbg-hint" role="group" aria-label="Also reads as">
      Not a {CAPTURE_FORMAT_LABEL[parsed.format]}? It also reads as:{' '}
      {parsed.alternatives.map((f) => (
        <button key={f} type="button" className="ui-btn ui-btn-small" onClick={() => onReadAs(f)}>
          {CAPTURE_FORMAT_LABEL[f]}
        </button>
      ))}
    </p>
  );
}
