import { useEffect, useState } from 'react';
import { verifyCallback } from '../core/index.ts';
import { useSigningContext } from '../features/profiles/index.ts';
import { announceReturn, returnFieldsOf, returnQuery, uploadDraft } from './customer-return.ts';
import { navigate, opHref } from './router.ts';
import { runtime } from './runtime.ts';
import { NameValueTable } from '../ui/name-value-table.tsx';

function useReturnCheck(q: URLSearchParams): 'ok' | 'bad' | 'no-key' | null {
  const { context } = useSigningContext();
  const key = context?.credentials.controlKey;
  const [result, setResult] = useState<'ok' | 'bad' | 'no-key' | null>(null);
  const control = q.get('control');
  const status = q.get('status');
  const orderid = q.get('orderid');
  const merchantOrder = q.get('merchant_order') ?? q.get('client_orderid');
  useEffect(() => {
    if (!control || status === null) return;
    let live = true;
    void verifyCallback(
      { control, status, orderid: orderid ?? '', merchant_order: merchantOrder ?? '' },
      key,
      runtime.crypto,
    ).then((verdict) => {
      if (live) setResult(verdict === 'valid' ? 'ok' : verdict === 'no-key' ? 'no-key' : 'bad');
    });
    return () => {
      live = false;
    };
  }, [control, status, orderid, merchantOrder, key]);
  return control && status !== null ? result : null;
}

export function ReturnPage() {
  const [{ fields: q, posted }] = useState(returnQuery);
  const fields = [...q];
  const upload = uploadDraft(returnFieldsOf(q));
  const check = useReturnCheck(q);
  const { context } = useSigningContext();
  // The uploads are signed with the control key: offered only where this tab holds one.
  const canSign = Boolean(context?.credentials.controlKey);
  const [taken, setTaken] = useState(false);
  useEffect(() => {
    const fields = returnFieldsOf(q);
    if (!uploadDraft(fields)) return;
    return announceReturn(fields, () => setTaken(true));
  }, [q]);
  return (
    <section aria-labelledby="return-title">
      <h1 id="return-title">
        {taken ? 'Authentication done, you can close this tab' : 'The customer is back'}
      </h1>
      {taken ? (
        <p role="status">
          The console tab that sent this payment received the issuer&apos;s result and filled its upload form:
          sign and send it there, with that tab&apos;s profile.
        </p>
      ) : null}
      <p>
        This page is the <code>redirect_url</code> the test data uses: the gateway sends the customer here
        after a hosted form or a 3-D Secure step
        {posted ? ', by a POSTed form (as here)' : ''}. Confirm the outcome with the status operation: a
        redirect can be lost or forged.
      </p>
      {upload && !taken && !canSign ? (
        <p role="note">
          This tab holds no control key, so it cannot sign the upload. The console tab that sent this payment
          takes the result when it is open; or enter the control key in the profile here.
        </p>
      ) : null}
      {upload && !taken && canSign ? (
        <p>
          <button
            type="button"
            className="ui-btn ui-btn-primary"
            onClick={() => navigate(opHref(upload.draft.operation), { draft: upload.draft })}
          >
            {upload.title}
          </button>
        </p>
      ) : null}
      {check ? (
        <p role="status" className={check === 'ok' ? 'wb-good' : check === 'bad' ? 'wb-bad' : undefined}>
          {check === 'ok'
            ? '✓ control matches: sha1(status + orderid + merchant_order + control key)'
            : check === 'bad'
              ? '✗ control does not match the profile’s control key'
              : 'Enter the control key in the profile to check control.'}
        </p>
      ) : null}
      {fields.length > 0 ? (
        <NameValueTable label="Fields the customer came back with" rows={fields} />
      ) : (
        <p>No fields came with the return.</p>
      )}
    </section>
  );
}
