import { describeFormula } from '../core/control/control-terms.ts';
import type { BuiltRequest } from '../core/request/build-request.ts';
import type { OperationSigningSpec } from '../core/request/operation-spec.ts';
import type { RuleReference } from './mistakes.ts';

/** One step of the teaching mode's walkthrough: what is done, the rule it applies, and the user's live value. */
export interface WalkthroughStep {
  id: string;
  title: string;
  rule: RuleReference;
  /** The value this step produces from the user's inputs (keys masked). */
  value: string;
}

const C = (step: string, quote: string): RuleReference => ({
  document: 'api-description.md',
  section: `Authentication › Scheme C step ${step}`,
  quote,
});
const O1 = (step: string, quote: string): RuleReference => ({
  document: 'api-description.md',
  section: `Authentication › Scheme O1 step ${step}`,
  quote,
});
const O2 = (step: string, quote: string): RuleReference => ({
  document: 'api-description.md',
  section: `Authentication › Scheme O2 step ${step}`,
  quote,
});

/**
 * The signing of a built request, step by step, each step naming the rule of the description it
 * applies and showing the value it gives for the user's own inputs. It reads the very trace
 * `buildRequest` signed with, so what it shows is what was sent.
 */
export function walkthrough(built: BuiltRequest, operation: OperationSigningSpec): WalkthroughStep[] {
  const s = built.signing;
  if (s.scheme === 'control') {
    const steps: WalkthroughStep[] = [
      {
        id: 'formula',
        title: "Take the values the operation's formula names, in its order",
        rule: C('2', "the values named in the operation's formula, in that order"),
        value: `${describeFormula(operation.formula ?? [])}\n${s.terms.map((t) => `${t.label} = "${t.value}"${t.note ? ` (${t.note})` : ''}`).join('\n')}`,
      },
    ];
    const amount = s.terms.find((t) => t.original !== undefined);
    if (amount) {
      steps.push({
        id: 'minor-units',
        title: 'Write the amount in minor units',
        rule: C('3', '`amount` is taken in cents (10.00 becomes 1000).'),
        value: `${amount.original} → ${amount.value}`,
      });
    }
    steps.push(
      {
        id: 'concatenate',
        title: 'Concatenate them without separators, the control key last',
        rule: C('2', 'SHA-1 over the plain concatenation (no separators)'),
        value: s.maskedInput,
      },
      {
        id: 'sha1',
        title: 'SHA-1 of the concatenation, as lowercase hex',
        rule: {
          document: 'gateway-notes.md',
          section: '`control` (scheme C)',
          quote: 'Lowercase hex SHA-1 (40 chars) of the UTF-8 concatenation, no separators, key last.',
        },
        value: s.signature ?? '(no control key: cannot be computed)',
      },
      {
        id: 'send',
        title: 'Send it as the control parameter of the body',
        rule: C('1', 'The body carries a `control` parameter.'),
        value: `control=${s.signature ?? ''}`,
      },
    );
    return steps;
  }
  const hmac = s.scheme === 'oauth-hmac-sha1';
  const left = s.parameters.filter((p) => !p.included);
  return [
    {
      id: 'gather',
      title: 'Gather the body parameters and the oauth_* parameters, leaving out oauth_signature',
      rule: O1('2', 'gather all body parameters plus the oauth parameters except `oauth_signature`'),
      value: [
        ...s.parameters.filter((p) => p.included).map((p) => `${p.name} = "${p.value}" (${p.source})`),
        ...left.map((p) => `${p.name}: left out, ${p.excludedBecause ?? ''}`),
      ].join('\n'),
    },
    {
      id: 'encode',
      title: 'Percent-encode each name and value (RFC 3986: space as %20)',
      rule: O1(
        '2',
        'percent-encode (RFC 3986: unreserved characters are left unencoded, reserved characters encoded, space as `%20`) each value',
      ),
      value: s.parameters
        .filter((p) => p.included)
        .map((p) => `${p.encodedName}=${p.encodedValue}`)
        .join('\n'),
    },
    {
      id: 'sort',
      title: 'Sort them by name, then by value',
      rule: O1('2', 'sort by parameter name lexicographically'),
      value: s.sorted.map((p) => `${p.encodedName}=${p.encodedValue}`).join('\n'),
    },
    {
      id: 'join',
      title: 'Join them as name=value pairs with &',
      rule: O1('2', 'join as `name=value` pairs with `&`'),
      value: s.parameterString,
    },
    {
      id: 'url',
      title: 'Normalise the URL: lowercase scheme and host, no default port, no query',
      rule: O1('2', 'The URL has no default port.'),
      value: s.normalizedUrl,
    },
    {
      id: 'base-string',
      title: 'Build the base string: POST&<encoded URL>&<encoded parameters>',
      rule: O1(
        '2',
        'The base string is `POST&<encoded URL>&<encoded joined parameters>`, each of the three parts percent-encoded (the inner `&` and `=` included).',
      ),
      value: s.base.baseString,
    },
    hmac
      ? {
          id: 'key',
          title: 'The HMAC key: the control key, then &',
          rule: O1(
            '3',
            'Signing key: the merchant control key (consumer secret), then `&`, then the empty token secret.',
          ),
          value: s.maskedSigningKey ?? '<merchant_control_key>&',
        }
      : {
          id: 'key',
          title: "The merchant's RSA private key",
          rule: O2(
            '2',
            'RSA signature with SHA-256 over the base string (UTF-8 bytes), using the merchant private key',
          ),
          value: '<merchant private key>',
        },
    hmac
      ? {
          id: 'sign',
          title: 'HMAC-SHA1 of the base string, Base64',
          rule: O1('4', 'Signature: HMAC-SHA1 of the base string with that key, Base64-encoded.'),
          value: s.signature ?? '(no control key: cannot be computed)',
        }
      : {
          id: 'sign',
          title: 'RSA-SHA256 (PKCS#1 v1.5) of the base string, Base64',
          rule: O2('2', 'Base64-encoded, then percent-encoded once more when placed in the header value.'),
          value: s.signature ?? '(no private key: cannot be computed)',
        },
    {
      id: 'header',
      title: 'Put the oauth_* values, percent-encoded, into the Authorization header',
      rule: O1('5', 'the values (especially nonce and signature) are percent-encoded before insertion.'),
      value: s.authorization ?? '(not signed)',
    },
  ];
}
