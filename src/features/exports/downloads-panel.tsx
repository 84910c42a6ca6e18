import { useState } from 'react';
import { buildOpenApi, buildPostmanCollection, exchangesToHar } from '../../exports/index.ts';
import { returnUrlOf, type Place } from '../../model/index.ts';
import type { Exchange } from '../../model/exchange.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { errorText } from '../../core/errors.ts';
import { downloadText } from './download.ts';

const DEFAULT_BASE = 'https://sandbox.example.com/paynet';
const JSON_TYPE = 'application/json';

export function DownloadsPanel({
  context,
  place,
  loadExchanges,
}: {
  context: SigningContext | null;
  place: Place;
  loadExchanges: () => Promise<Exchange[]>;
}) {
  const [message, setMessage] = useState<{ text: string; bad: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const baseUrl = context?.target.baseUrl ?? DEFAULT_BASE;
  const attempt = (what: string, fn: () => string | undefined) => {
    try {
      const note = fn();
      setMessage({ text: note ?? `${what} downloaded.`, bad: false });
    } catch (e) {
      setMessage({ text: `${what} could not be made: ${errorText(e)}`, bad: true });
    }
  };
  const openApi = () =>
    attempt('The OpenAPI document', () => {
      const doc = buildOpenApi({ serverUrl: baseUrl });
      downloadText('pay-api.openapi.json', JSON.stringify(doc, null, 2), JSON_TYPE);
      return undefined;
    });
  const postman = () =>
    attempt('The Postman collection', () => {
      const collection = buildPostmanCollection({
        baseUrl,
        ...(context && context.endpoint.kind === 'endpoint' ? { endpointId: context.endpoint.id } : {}),
        login: context?.credentials.login ?? '',
        returnUrl: returnUrlOf(place),
        callbackUrl: place.inboxUrl,
      });
      downloadText('pay-api.postman_collection.json', JSON.stringify(collection, null, 2), JSON_TYPE);
      return undefined;
    });
  const har = async () => {
    setBusy(true);
    try {
      const exchanges = await loadExchanges();
      attempt('The history', () => {
        if (exchanges.length === 0) return 'History is empty: send a request first.';
        const doc = exchangesToHar(exchanges);
        downloadText('pay-console-history.har', JSON.stringify(doc, null, 2), JSON_TYPE);
        return `History downloaded as HAR: ${exchanges.length} request${exchanges.length === 1 ? '' : 's'}, card numbers masked, CVVs and secrets removed.`;
      });
    } catch (e) {
      setMessage({
        text: `History could not be read: ${errorText(e)}. Reload the page and retry.`,
        bad: true,
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="ex-downloads">
      <ul className="ex-download-list">
        <li>
          <button type="button" className="ui-btn" onClick={openApi}>
            Download OpenAPI 3.1
          </button>
          <span className="ex-note">
            Every operation of the catalog, its form body, answers and authentication schemes; server{' '}
            <code>{baseUrl}</code>.
          </span>
        </li>
        <li>
          <button type="button" className="ui-btn" onClick={postman}>
            Download Postman collection
          </button>
          <span className="ex-note">
            Collection v2.1 with OAuth 1.0 set up per operation and <code>control</code> computed by a
            pre-request script. The key variables stay empty: set them in a Postman environment.
          </span>
        </li>
        <li>
          <button type="button" className="ui-btn" disabled={busy} onClick={() => void har()}>
            Download history as HAR
          </button>
          <span className="ex-note">
            The requests in this browser's history; card numbers masked to first six and last four, CVVs and
            secrets removed.
          </span>
        </li>
      </ul>
      {message ? (
        <p className={message.bad ? 'ex-error' : 'ex-ok'} role="status">
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
