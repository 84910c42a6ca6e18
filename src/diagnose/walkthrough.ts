import { describeFormula } from '../core/control/control-terms.ts';
import type { BuiltRequest } from '../core/request/build-request.ts';
import type { OperationSigningSpec } from '../core/request/operation-spec.ts';
import { ruleById, type RuleReference } from './rulebook.ts';

/** One step of the teaching mode's walkthrough: what is done, the rule it applies, and the user's live value. */
export interface WalkthroughStep {
  id: string;
  title: string;
  rule: RuleReference;
  /** The value this step produces from the user's inputs (keys masked). */
  value: string;
}

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
        rule: ruleById('c-concatenation'),
        value: `${describeFormula(operation.formula ?? [])}\n${s.terms.map((t) => `${t.label} = "${t.value}"${t.note ? ` (${t.note})` : ''}`).join('\n')}`,
      },
    ];
    const amount = s.terms.find((t) => t.original !== undefined);
    if (amount) {
      steps.push({
        id: 'minor-units',
        title: 'Write the amount in minor units',
        rule: ruleById('c-amount-cents'),
        value: `${amount.original} → ${amount.value}`,
      });
    }
    steps.push(
      {
        id: 'concatenate',
        title: 'Concatenate them without separators, the control key last',
        rule: ruleById('c-concatenation'),
        value: s.maskedInput,
      },
      {
        id: 'sha1',
        title: 'SHA-1 of the concatenation, as lowercase hex',
        rule: ruleById('notes-lowercase-hex'),
        value: s.signature ?? '(no control key: cannot be computed)',
      },
      {
        id: 'send',
        title: 'Send it as the control parameter of the body',
        rule: ruleById('c-control-parameter'),
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
      rule: ruleById('o1-exclude-signature'),
      value: [
        ...s.parameters.filter((p) => p.included).map((p) => `${p.name} = "${p.value}" (${p.source})`),
        ...left.map((p) => `${p.name}: left out, ${p.excludedBecause ?? ''}`),
      ].join('\n'),
    },
    {
      id: 'encode',
      title: 'Percent-encode each name and value (RFC 3986: space as %20)',
      rule: ruleById('o1-percent-encode'),
      value: s.parameters
        .filter((p) => p.included)
        .map((p) => `${p.encodedName}=${p.encodedValue}`)
        .join('\n'),
    },
    {
      id: 'sort',
      title: 'Sort them by name, then by value',
      rule: ruleById('o1-sort'),
      value: s.sorted.map((p) => `${p.encodedName}=${p.encodedValue}`).join('\n'),
    },
    {
      id: 'join',
      title: 'Join them as name=value pairs with &',
      rule: ruleById('o1-join'),
      value: s.parameterString,
    },
    {
      id: 'url',
      title: 'Normalise the URL: lowercase scheme and host, no default port, no query',
      rule: ruleById('o1-no-default-port'),
      value: s.normalizedUrl,
    },
    {
      id: 'base-string',
      title: 'Build the base string: POST&<encoded URL>&<encoded parameters>',
      rule: ruleById('o1-three-parts'),
      value: s.base.baseString,
    },
    hmac
      ? {
          id: 'key',
          title: 'The HMAC key: the control key, then &',
          rule: ruleById('o1-signing-key'),
          value: s.maskedSigningKey ?? '<merchant_control_key>&',
        }
      : {
          id: 'key',
          title: "The merchant's RSA private key",
          rule: ruleById('o2-rsa-key'),
          value: '<merchant private key>',
        },
    hmac
      ? {
          id: 'sign',
          title: 'HMAC-SHA1 of the base string, Base64',
          rule: ruleById('o1-hmac-signature'),
          value: s.signature ?? '(no control key: cannot be computed)',
        }
      : {
          id: 'sign',
          title: 'RSA-SHA256 (PKCS#1 v1.5) of the base string, Base64',
          rule: ruleById('o2-rsa-signature-encoding'),
          value: s.signature ?? '(no private key: cannot be computed)',
        },
    {
      id: 'header',
      title: 'Put the oauth_* values, percent-encoded, into the Authorization header',
      rule: ruleById('o1-header-encoding'),
      value: s.authorization ?? '(not signed)',
    },
  ];
}
