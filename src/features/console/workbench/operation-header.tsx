import { describeFormula, type EndpointRef } from '../../../core/index.ts';
import { OPERATION_SOURCE_LABEL, SCHEME_TITLES, type Operation } from '../../../catalog/index.ts';
import type { SigningContext } from '../../../model/signing-context.ts';
import { provenanceLabel } from '../form/labels.ts';

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
        <li>
          <code>{op.id}</code>
        </li>
        <li>
          {SCHEME_TITLES[op.scheme]}
          {op.schemeSource !== 'description' ? (
            <span className={`wb-prov wb-prov-${op.schemeSource}`}>
              scheme {provenanceLabel(op.schemeSource)}
            </span>
          ) : null}
        </li>
        {op.scheme === 'control' && op.formula ? (
          <li>
            control = sha1(<code>{describeFormula(op.formula)}</code>)
            {op.formulaSource && op.formulaSource !== 'description' ? (
              <span className={`wb-prov wb-prov-${op.formulaSource}`}>
                formula {provenanceLabel(op.formulaSource)}
              </span>
            ) : null}
          </li>
        ) : null}
        {op.movesMoney ? <li className="wb-tag-money">moves money</li> : null}
        {op.exampleOnly ? <li>only in the description's authentication examples</li> : null}
        {op.source ? <li>{OPERATION_SOURCE_LABEL[op.source]}</li> : null}
        {op.requestSchemaName ? <li>request schema {op.requestSchemaName}</li> : null}
        <li>answer {op.response}</li>
      </ul>
      <p className="wb-summary">{op.summary}</p>
    </header>
  );
}
