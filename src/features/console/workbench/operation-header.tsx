import type { EndpointRef } from '../../../core/index.ts';
import type { Operation } from '../../../catalog/index.ts';
import type { SigningContext } from '../../../model/signing-context.ts';
import { operationFacts } from './operation-facts.ts';

/** The operation's title, address, facts and summary; the opened request's own endpoint, if any. */
export function OperationHeader({
  op,
  context,
  opened,
  onUseProfileEndpoint,
}: {
  op: Operation;
  context: SigningContext | null;
  opened: EndpointRef | undefined;
  onUseProfileEndpoint: () => void;
}) {
  const endpoint = opened ?? context?.endpoint;
  return (
    <header className="wb-head">
      <h1 id="op-title">{op.title}</h1>
      <p className="wb-path">
        <span className="wb-method">POST</span>{' '}
        <code>
          {context ? context.target.baseUrl : '{base_url}'}/api/{op.path}/
          {endpoint ? (endpoint.kind === 'group' ? `group/${endpoint.id}` : endpoint.id) : '{endpointId}'}
        </code>
      </p>
      {opened && (opened.kind !== context?.endpoint.kind || opened.id !== context.endpoint.id) ? (
        <p className="wb-hint" role="note">
          The {opened.kind === 'group' ? 'endpoint group' : 'endpoint'} {opened.id} comes with the opened
          request, not from the profile.{' '}
          <button type="button" className="ui-btn ui-btn-small" onClick={onUseProfileEndpoint}>
            Use the profile’s endpoint
          </button>
        </p>
      ) : null}
      <ul className="wb-tags" aria-label="Operation facts">
        {operationFacts(op).map(([before, className, code, after, source, label], i) => (
          <li key={i} className={className}>
            {before}
            {code !== undefined ? <code>{code}</code> : null}
            {after}
            {source ? <span className={`wb-prov wb-prov-${source}`}>{label}</span> : null}
          </li>
        ))}
      </ul>
      <p className="wb-summary">{op.summary}</p>
    </header>
  );
}
