import { describeFormula } from '../core/control/control-terms.ts';
import { CONTROL_KEY_MASK, type ControlTrace } from '../core/control/sign-control.ts';
import type { BuiltRequest, OAuthTrace } from '../core/request/build-request.ts';
import type { EndpointRef, OperationSigningSpec } from '../core/request/operation-spec.ts';
import { ruleById, type RuleReference } from './rulebook.ts';

export type StepValue =
  { label: string; text: string } | { label: string; table: { columns: string[]; rows: string[][] } };

/** One step of a scheme: the core function that computed it, the rule it applies, what went in and came out. */
export interface WalkStep {
  title: string;
  /** The signing core's function that computed the step when the request was built. */
  call: string;
  rules: RuleReference[];
  input: StepValue[];
  output: StepValue[];
}

export interface Walkthrough {
  scheme: OperationSigningSpec['scheme'];
  steps: WalkStep[];
  /** The signature of the built request, or null when a secret is missing. */
  signature: string | null;
  /** What is missing to finish, in plain words. */
  missing?: string;
}

/** What the trace does not hold and a step shows: who signs, where to, and the RSA key's size. */
export interface WalkContext {
  login: string;
  endpoint: EndpointRef;
  /** The modulus length of the RSA private key, when one signed. */
  rsaKeyBits?: number;
}

const DESC = 'api-description.md';

/** The rulebook's rules each step cites. */
export const WALK_RULES = {
  formula: ruleById('c-formula-column'),
  terms: ruleById('c-term-values'),
  absent: ruleById('c-absent-order-id'),
  concatenate: ruleById('c-concatenation-value'),
  hex: ruleById('notes-lowercase-hex'),
  body: ruleById('c-control-parameter'),
  protocol: ruleById('o1-header-parameters'),
  rsaMethod: ruleById('o2-same-rules'),
  encode: ruleById('o1-gather-and-encode'),
  sort: ruleById('o1-sort-and-join'),
  url: ruleById('o1-no-default-port'),
  base: ruleById('o1-three-parts'),
  noPlus: ruleById('o2-space-never-plus'),
  hmacKey: ruleById('o1-signing-key'),
  rsaKey: ruleById('o2-key-pair'),
  hmacSign: ruleById('o1-hmac-signature'),
  rsaSign: ruleById('o2-rsa-signature'),
  header: ruleById('o1-header'),
} satisfies Record<string, RuleReference>;

const show = (v: string) => (v === '' ? '""' : v);

function bodyTable(label: string, body: ReadonlyArray<{ name: string; value: string }>): StepValue {
  return { label, table: { columns: ['name', 'value'], rows: body.map((p) => [p.name, show(p.value)]) } };
}

function walkControl(
  built: BuiltRequest,
  s: ControlTrace,
  operation: OperationSigningSpec,
  ctx: WalkContext,
): Walkthrough {
  const formula = operation.formula ?? [];
  const formulaFields = new Set(formula.flatMap((t) => (t.kind === 'field' ? [t.name] : [])));
  const steps: WalkStep[] = [
    {
      title: 'Take the operation’s formula',
      call: 'describeFormula',
      rules: [WALK_RULES.formula],
      input: [{ label: 'Operation', text: operation.path }],
      output: [{ label: 'Formula', text: describeFormula(formula) }],
    },
    {
      title: 'Resolve each term to the text that is signed',
      call: 'resolveControlTerms',
      rules: [WALK_RULES.terms, WALK_RULES.absent],
      input: [
        { label: 'Merchant login', text: show(ctx.login) },
        {
          label: ctx.endpoint.kind === 'group' ? 'Endpoint group id (path)' : 'Endpoint id (path)',
          text: ctx.endpoint.id,
        },
        bodyTable(
          'Body values the formula names',
          built.body.filter((p) => p.name !== 'control' && formulaFields.has(p.name)),
        ),
      ],
      output: [
        {
          label: 'Terms',
          table: {
            columns: ['#', 'term', 'value', 'source', 'note'],
            rows: s.terms.map((t, i) => [
              String(i + 1),
              t.label,
              show(t.value),
              t.source,
              t.error ? t.error.message : (t.note ?? ''),
            ]),
          },
        },
      ],
    },
    {
      title: 'Concatenate the terms, without separators',
      call: 'joinControlTerms',
      rules: [WALK_RULES.concatenate],
      input: [{ label: 'Terms in order', text: s.terms.map((t) => show(t.value)).join(' + ') }],
      output: [{ label: 'Concatenation', text: s.joined }],
    },
    {
      title: 'SHA-1 over the concatenation followed by the control key, in lowercase hex',
      call: 'computeControl',
      rules: [WALK_RULES.concatenate, WALK_RULES.hex],
      input: [{ label: 'Signing input', text: s.maskedInput }],
      output: [{ label: 'control', text: s.signature ?? '(no control key in the profile)' }],
    },
    {
      title: 'Send it in the body as control',
      call: 'encodeFormBody',
      rules: [WALK_RULES.body],
      input: [bodyTable('Body parameters, control last', built.body)],
      output: [{ label: 'Body', text: built.bodyText }],
    },
  ];
  const missing =
    s.signature !== null
      ? undefined
      : s.problems.some((p) => p.code === 'CONTROL_KEY_MISSING')
        ? 'Enter the merchant control key in the profile to compute control.'
        : s.problems.map((p) => p.message).join(' ') || 'The request cannot be signed.';
  return { scheme: 'control', steps, signature: s.signature, ...(missing ? { missing } : {}) };
}

function walkOAuth(built: BuiltRequest, s: OAuthTrace, ctx: WalkContext): Walkthrough {
  const rsa = s.scheme === 'oauth-rsa-sha256';
  const protocol = s.parameters.filter((p) => p.source === 'oauth' && p.name !== 'oauth_signature');
  const included = s.parameters.filter((p) => p.included);
  const signed = s.signature !== null;
  const steps: WalkStep[] = [
    {
      title: 'The oauth_* protocol parameters',
      call: 'buildProtocolParameters',
      rules: rsa ? [WALK_RULES.protocol, WALK_RULES.rsaMethod] : [WALK_RULES.protocol],
      input: [
        { label: 'Merchant login', text: show(ctx.login) },
        { label: 'Nonce', text: s.nonce },
        { label: 'Timestamp (seconds)', text: s.timestamp },
      ],
      output: [
        {
          label: 'Protocol parameters',
          table: { columns: ['name', 'value'], rows: protocol.map((p) => [p.name, p.value]) },
        },
      ],
    },
    {
      title: 'Gather the body and oauth parameters, percent-encode each name and value',
      call: 'collectSignatureParameters',
      rules: [WALK_RULES.encode],
      input: [bodyTable('Body parameters as sent', built.body)],
      output: [
        {
          label: 'Parameters',
          table: {
            columns: ['name', 'value', 'encoded name', 'encoded value', 'source', 'signed'],
            rows: s.parameters.map((p) => [
              p.name,
              show(p.value),
              p.encodedName,
              show(p.encodedValue),
              p.source,
              p.included ? 'yes' : `no: ${p.excludedBecause ?? ''}`,
            ]),
          },
        },
      ],
    },
    {
      title: 'Sort the encoded pairs by name, then value, and join them with &',
      call: 'normalizeParameters',
      rules: [WALK_RULES.sort],
      input: [
        {
          label: 'Pairs in the order gathered',
          text: included.map((p) => `${p.encodedName}=${p.encodedValue}`).join('\n'),
        },
      ],
      output: [
        { label: 'Pairs sorted', text: s.sorted.map((p) => `${p.encodedName}=${p.encodedValue}`).join('\n') },
        { label: 'Parameter string', text: s.parameterString },
      ],
    },
    {
      title: 'Normalize the URL: lowercase scheme and host, no default port, no query',
      call: 'normalizeUrl',
      rules: [WALK_RULES.url],
      input: [{ label: 'Request URL', text: built.url }],
      output: [{ label: 'Normalized URL', text: s.normalizedUrl }],
    },
    {
      title: 'Build the base string from its three percent-encoded parts',
      call: 'buildBaseString',
      rules: rsa ? [WALK_RULES.base, WALK_RULES.noPlus] : [WALK_RULES.base],
      input: [
        { label: 'Method', text: s.base.method },
        { label: 'Normalized URL', text: s.normalizedUrl },
        { label: 'Parameter string', text: s.parameterString },
      ],
      output: [
        { label: 'Encoded URL', text: s.base.encodedUrl },
        { label: 'Encoded parameter string', text: s.base.encodedParameters },
        { label: 'Base string', text: s.base.baseString },
      ],
    },
  ];
  if (rsa) {
    steps.push(
      {
        title: 'Take the merchant’s RSA private key',
        call: 'importSigningKey',
        rules: [WALK_RULES.rsaKey],
        input: [
          {
            label: 'Private key',
            text: signed ? 'from the profile (held in memory, never shown)' : '(none)',
          },
        ],
        output: [
          {
            label: 'Key',
            text: signed
              ? `RSA private key, ${ctx.rsaKeyBits ?? '?'} bits`
              : '(no private key in the profile)',
          },
        ],
      },
      {
        title: 'RSA-SHA256 (PKCS#1 v1.5) over the base string, Base64-encoded',
        call: 'signRsaSha256',
        rules: [WALK_RULES.rsaSign],
        input: [{ label: 'Base string (UTF-8 bytes)', text: s.base.baseString }],
        output: [{ label: 'oauth_signature', text: s.signature ?? '(not signed)' }],
      },
    );
  } else {
    const key = s.maskedSigningKey ?? `${CONTROL_KEY_MASK}&`;
    steps.push(
      {
        title: 'The HMAC key: the encoded control key, &, the empty token secret',
        call: 'hmacSigningKey',
        rules: [WALK_RULES.hmacKey],
        input: [
          { label: 'Consumer secret', text: signed ? CONTROL_KEY_MASK : '(no control key in the profile)' },
        ],
        output: [{ label: 'Signing key', text: key }],
      },
      {
        title: 'HMAC-SHA1 of the base string with that key, Base64-encoded',
        call: 'signHmacSha1',
        rules: [WALK_RULES.hmacSign],
        input: [
          { label: 'Base string', text: s.base.baseString },
          { label: 'Key', text: key },
        ],
        output: [{ label: 'oauth_signature', text: s.signature ?? '(not signed)' }],
      },
    );
  }
  steps.push({
    title: 'Put the oauth parameters and the signature in the Authorization header',
    call: 'buildAuthorizationHeader',
    rules: rsa ? [WALK_RULES.header, WALK_RULES.rsaSign] : [WALK_RULES.header],
    input: [
      {
        label: 'Header parameters',
        table: {
          columns: ['name', 'value'],
          rows: [...protocol, { name: 'oauth_signature', value: s.signature ?? '' }].map((p) => [
            p.name,
            show(p.value),
          ]),
        },
      },
    ],
    output: [{ label: 'Authorization', text: s.authorization ?? '(not signed)' }],
  });
  const missing = signed
    ? undefined
    : rsa
      ? 'Load the merchant private key in the profile to sign with RSA-SHA256.'
      : 'Enter the merchant control key in the profile to sign with HMAC-SHA1.';
  return { scheme: s.scheme, steps, signature: s.signature, ...(missing ? { missing } : {}) };
}

/**
 * The signing of a built request, step by step: each step names the core function that computed
 * it and the rule of the description it applies, and shows its input and output for the user's
 * own values. Everything is read from the request's signing trace, the very values `buildRequest`
 * signed with (a second signer could drift from it); no key is shown.
 * @param operation the signing spec the request was built with (its formula may be an edited one).
 */
export function walkthrough(
  built: BuiltRequest,
  operation: OperationSigningSpec,
  ctx: WalkContext,
): Walkthrough {
  const s = built.signing;
  return s.scheme === 'control' ? walkControl(built, s, operation, ctx) : walkOAuth(built, s, ctx);
}

/** How a rule is cited on the page: `Authentication › Scheme O1 step 2: percent-encode each value…`. */
export function citeRule(r: RuleReference): string {
  const where = r.document === DESC ? r.section : `${r.document} › ${r.section}`;
  return `${where}: ${r.quote}`;
}
