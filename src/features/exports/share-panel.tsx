import { useMemo } from 'react';
import type { RequestDraft } from '../../model/index.ts';
import { CopyButton } from '../../ui/index.ts';
import { errorText } from '../../core/errors.ts';
import { shareLinkFor } from './share-fragment.ts';

export function SharePanel({ draft }: { draft: RequestDraft | null }) {
  const link = useMemo(() => {
    if (!draft) return null;
    try {
      return shareLinkFor(draft, location.origin);
    } catch (e) {
      return { error: errorText(e) };
    }
  }, [draft]);
  if (!draft || !link) {
    return <p className="ex-empty">Open an operation in the workbench to share its request.</p>;
  }
  if ('error' in link) {
    return (
      <p className="ex-error" role="alert">
        {link.error}
      </p>
    );
  }
  return (
    <div className="ex-share">
      <p className="ex-note">
        A link that opens <code>{draft.operation}</code> with this request: its values, scheme, formula,
        endpoint and pinned nonce and timestamp. No control key, no private key, no signature, no card number
        and no CVV; the login, return page and callback inbox are the recipient’s own. It lives in the URL
        fragment, which browsers never send to a server.
      </p>
      <div className="ex-row">
        <label className="ex-grow">
          <span className="ex-label">Share link</span>
          <input className="ex-input" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
        </label>
        <CopyButton text={link.url} label="Copy the share link" />
      </div>
      {link.leftOut.length > 0 ? <p className="ex-note">Left out: {link.leftOut.join(', ')}.</p> : null}
    </div>
  );
}
