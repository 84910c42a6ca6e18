import {
  buildAuthorizationHeader,
  buildBaseString,
  buildProtocolParameters,
  collectSignatureParameters,
  computeControl,
  CONTROL_KEY_MASK,
  describeFormula,
  encodeFormBody,
  hmacSigningKey,
  joinControlTerms,
  normalizeParameters,
  normalizeUrl,
  operationUrl,
  resolveControlTerms,
  selectBodyParams,
  signHmacSha1,
  signRsaSha256,
  type Credentials,
  type CryptoPort,
  type EndpointRef,
  type InputParam,
  type OperationSigningSpec,
} from '../../core/index.ts';
import { ruleById, type RuleReference } from '../../diagnose/index.ts';

export type StepValue =
  { label: string; text: string } | { label: string; table: { columns: string[]; rows: string[][] } };

/** One step of a scheme: the core function it calls, the rule it applies, what goes in and comes out. */
export interface WalkStep {
  title: string;
  /** The signing core's function that computes the step. */
  call: string;
  rules: RuleReference[];
  input: StepValue[];
  output: StepValue[];
}

export interface Walkthrough {
  scheme: OperationSigningSpec['scheme'];
  steps: WalkStep[];
  /** The signature the last step produced, or null when a secret is missing. */
  signature: string | null;
  /** What is missing to finish, in plain words. */
  missing?: string;
}

export interface WalkInput {
  operation: OperationSigningSpec;
  baseUrl: string;
  endpoint: EndpointRef;
  params: readonly InputParam[];
  credentials: Credentials;
  nonce: string;
  timestamp: string;
  crypto: CryptoPort;
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

/** Scheme C, step by step, each step computed by the core's own function. */
async function walkControl(
  w: WalkInput,
  body: ReadonlyArray<{ name: string; value: string }>,
): Promise<Walkthrough> {
  const formula = w.operation.formula ?? [];
  const steps: WalkStep[] = [];
  steps.push({
    title: 'Take the operation’s formula',
    call: 'describeFormula',
    rules: [WALK_RULES.formula],
    input: [{ label: 'Operation', text: w.operation.path }],
    output: [{ label: 'Formula', text: describeFormula(formula) }],
  });
  const terms = resolveControlTerms(formula, { login: w.credentials.login, endpoint: w.endpoint, body });
  const formulaFields = new Set(formula.flatMap((t) => (t.kind === 'field' ? [t.name] : [])));
  steps.push({
    title: 'Resolve each term to the text that is signed',
    call: 'resolveControlTerms',
    rules: [WALK_RULES.terms, WALK_RULES.absent],
    input: [
      { label: 'Merchant login', text: show(w.credentials.login) },
      {
        label: w.endpoint.kind === 'group' ? 'Endpoint group id (path)' : 'Endpoint id (path)',
        text: w.endpoint.id,
      },
      bodyTable(
        'Body values the formula names',
        body.filter((p) => formulaFields.has(p.name)),
      ),
    ],
    output: [
      {
        label: 'Terms',
        table: {
          columns: ['#', 'term', 'value', 'source', 'note'],
          rows: terms.map((t, i) => [
            String(i + 1),
            t.label,
            show(t.value),
            t.source,
            t.error ? t.error.message : (t.note ?? ''),
          ]),
        },
      },
    ],
  });
  const joined = joinControlTerms(terms);
  steps.push({
    title: 'Concatenate the terms, without separators',
    call: 'joinControlTerms',
    rules: [WALK_RULES.concatenate],
    input: [{ label: 'Terms in order', text: terms.map((t) => show(t.value)).join(' + ') }],
    output: [{ label: 'Concatenation', text: joined }],
  });
  const key = w.credentials.controlKey;
  const signature = key ? await computeControl(joined, key, w.crypto) : null;
  steps.push({
    title: 'SHA-1 over the concatenation followed by the control key, in lowercase hex',
    call: 'computeControl',
    rules: [WALK_RULES.concatenate, WALK_RULES.hex],
    input: [{ label: 'Signing input', text: `${joined}${CONTROL_KEY_MASK}` }],
    output: [{ label: 'control', text: signature ?? '(no control key in the profile)' }],
  });
  const sent = [...body, { name: 'control', value: signature ?? '' }];
  steps.push({
    title: 'Send it in the body as control',
    call: 'encodeFormBody',
    rules: [WALK_RULES.body],
    input: [bodyTable('Body parameters, control last', sent)],
    output: [{ label: 'Body', text: encodeFormBody(sent) }],
  });
  return {
    scheme: 'control',
    steps,
    signature,
    ...(key ? {} : { missing: 'Enter the merchant control key in the profile to compute control.' }),
  };
}

/** Schemes O1 and O2, step by step, each step computed by the core's own function. */
async function walkOAuth(
  w: WalkInput,
  body: ReadonlyArray<{ name: string; value: string }>,
): Promise<Walkthrough> {
  const rsa = w.operation.scheme === 'oauth-rsa-sha256';
  const method = rsa ? 'RSA-SHA256' : 'HMAC-SHA1';
  const steps: WalkStep[] = [];
  const protocol = buildProtocolParameters({
    consumerKey: w.credentials.login,
    method,
    nonce: w.nonce,
    timestamp: w.timestamp,
  });
  steps.push({
    title: 'The oauth_* protocol parameters',
    call: 'buildProtocolParameters',
    rules: rsa ? [WALK_RULES.protocol, WALK_RULES.rsaMethod] : [WALK_RULES.protocol],
    input: [
      { label: 'Merchant login', text: show(w.credentials.login) },
      { label: 'Nonce', text: w.nonce },
      { label: 'Timestamp (seconds)', text: w.timestamp },
    ],
    output: [
      {
        label: 'Protocol parameters',
        table: { columns: ['name', 'value'], rows: protocol.map((p) => [p.name, p.value]) },
      },
    ],
  });
  const collected = collectSignatureParameters(body, protocol);
  steps.push({
    title: 'Gather the body and oauth parameters, percent-encode each name and value',
    call: 'collectSignatureParameters',
    rules: [WALK_RULES.encode],
    input: [bodyTable('Body parameters as sent', body)],
    output: [
      {
        label: 'Parameters',
        table: {
          columns: ['name', 'value', 'encoded name', 'encoded value', 'source', 'signed'],
          rows: collected.map((p) => [
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
  });
  const { sorted, joined } = normalizeParameters(collected);
  steps.push({
    title: 'Sort the encoded pairs by name, then value, and join them with &',
    call: 'normalizeParameters',
    rules: [WALK_RULES.sort],
    input: [
      {
        label: 'Pairs in the order gathered',
        text: collected
          .filter((p) => p.included)
          .map((p) => `${p.encodedName}=${p.encodedValue}`)
          .join('\n'),
      },
    ],
    output: [
      { label: 'Pairs sorted', text: sorted.map((p) => `${p.encodedName}=${p.encodedValue}`).join('\n') },
      { label: 'Parameter string', text: joined },
    ],
  });
  const url = operationUrl(w.baseUrl, w.operation.path, w.endpoint);
  const normalized = normalizeUrl(url);
  steps.push({
    title: 'Normalize the URL: lowercase scheme and host, no default port, no query',
    call: 'normalizeUrl',
    rules: [WALK_RULES.url],
    input: [{ label: 'Request URL', text: url }],
    output: [{ label: 'Normalized URL', text: normalized }],
  });
  const base = buildBaseString('POST', normalized, joined);
  steps.push({
    title: 'Build the base string from its three percent-encoded parts',
    call: 'buildBaseString',
    rules: rsa ? [WALK_RULES.base, WALK_RULES.noPlus] : [WALK_RULES.base],
    input: [
      { label: 'Method', text: 'POST' },
      { label: 'Normalized URL', text: normalized },
      { label: 'Parameter string', text: joined },
    ],
    output: [
      { label: 'Encoded URL', text: base.encodedUrl },
      { label: 'Encoded parameter string', text: base.encodedParameters },
      { label: 'Base string', text: base.baseString },
    ],
  });
  let signature: string | null = null;
  let missing: string | undefined;
  if (rsa) {
    const key = w.credentials.privateKey;
    const bits = key ? (key.algorithm as RsaHashedKeyAlgorithm).modulusLength : undefined;
    steps.push({
      title: 'Take the merchant’s RSA private key',
      call: 'importSigningKey',
      rules: [WALK_RULES.rsaKey],
      input: [
        { label: 'Private key', text: key ? 'from the profile (held in memory, never shown)' : '(none)' },
      ],
      output: [
        {
          label: 'Key',
          text: key ? `RSA private key, ${bits ?? '?'} bits` : '(no private key in the profile)',
        },
      ],
    });
    if (key) signature = await signRsaSha256(base.baseString, key, w.crypto);
    else missing = 'Load the merchant private key in the profile to sign with RSA-SHA256.';
    steps.push({
      title: 'RSA-SHA256 (PKCS#1 v1.5) over the base string, Base64-encoded',
      call: 'signRsaSha256',
      rules: [WALK_RULES.rsaSign],
      input: [{ label: 'Base string (UTF-8 bytes)', text: base.baseString }],
      output: [{ label: 'oauth_signature', text: signature ?? '(not signed)' }],
    });
  } else {
    const key = w.credentials.controlKey;
    const signingKey = key ? hmacSigningKey(key) : undefined;
    steps.push({
      title: 'The HMAC key: the encoded control key, &, the empty token secret',
      call: 'hmacSigningKey',
      rules: [WALK_RULES.hmacKey],
      input: [{ label: 'Consumer secret', text: key ? CONTROL_KEY_MASK : '(no control key in the profile)' }],
      output: [{ label: 'Signing key', text: `${CONTROL_KEY_MASK}&` }],
    });
    if (signingKey) signature = await signHmacSha1(base.baseString, signingKey, w.crypto);
    else missing = 'Enter the merchant control key in the profile to sign with HMAC-SHA1.';
    steps.push({
      title: 'HMAC-SHA1 of the base string with that key, Base64-encoded',
      call: 'signHmacSha1',
      rules: [WALK_RULES.hmacSign],
      input: [
        { label: 'Base string', text: base.baseString },
        { label: 'Key', text: `${CONTROL_KEY_MASK}&` },
      ],
      output: [{ label: 'oauth_signature', text: signature ?? '(not signed)' }],
    });
  }
  const header =
    signature === null
      ? null
      : buildAuthorizationHeader([...protocol, { name: 'oauth_signature', value: signature }]);
  steps.push({
    title: 'Put the oauth parameters and the signature in the Authorization header',
    call: 'buildAuthorizationHeader',
    rules: rsa ? [WALK_RULES.header, WALK_RULES.rsaSign] : [WALK_RULES.header],
    input: [
      {
        label: 'Header parameters',
        table: {
          columns: ['name', 'value'],
          rows: [...protocol, { name: 'oauth_signature', value: signature ?? '' }].map((p) => [
            p.name,
            show(p.value),
          ]),
        },
      },
    ],
    output: [{ label: 'Authorization', text: header ?? '(not signed)' }],
  });
  return { scheme: w.operation.scheme, steps, signature, ...(missing ? { missing } : {}) };
}

/**
 * A step-by-step walkthrough of the operation's scheme with the user's values: every value shown
 * is computed by the signing core's step functions, the ones `buildRequest` chains.
 */
export async function walkThrough(w: WalkInput): Promise<Walkthrough> {
  const { body } = selectBodyParams(w.params.filter((p) => p.name !== 'control'));
  return w.operation.scheme === 'control' ? walkControl(w, body) : walkOAuth(w, body);
}

/** How a rule is cited on the page: `Authentication › Scheme O1 step 2: percent-encode each value…`. */
export function citeRule(r: RuleReference): string {
  const where = r.document === DESC ? r.section : `${r.document} › ${r.section}`;
  return `${where}: ${r.quote}`;
}
