import { EMBEDDED_WARNING, headerLines, RUN_ENV, SECRET_ENV, type SnippetPlan } from './snippet-plan.ts';

const js = (s: string) => JSON.stringify(s);

function paramsLiteral(plan: SnippetPlan): string[] {
  return [
    'const params = [',
    ...plan.params.map((p) => `  [${js(p.name)}, ${p.isLogin ? 'LOGIN' : js(p.value)}],`),
    '];',
  ];
}

function termExpression(plan: SnippetPlan): string[] {
  return plan.formula.map((t) =>
    t.kind === 'login'
      ? '  LOGIN,'
      : t.kind === 'endpointId'
        ? '  ENDPOINT_ID,'
        : t.minorUnits
          ? `  toMinorUnits(param(${js(t.name)})),`
          : `  param(${js(t.name)}),`,
  );
}

function secretLines(plan: SnippetPlan): string[] {
  if (plan.scheme === 'oauth-rsa-sha256') {
    if (plan.embedded?.privateKeyPem) {
      return [`// ${EMBEDDED_WARNING}`, `const PRIVATE_KEY_PEM = ${js(plan.embedded.privateKeyPem)};`];
    }
    return [
      `const keyFile = process.env.${SECRET_ENV.privateKeyFile};`,
      `if (!keyFile) throw new Error('Set ${SECRET_ENV.privateKeyFile} to the path of the merchant private key (PEM).');`,
      "const PRIVATE_KEY_PEM = readFileSync(keyFile, 'utf8');",
    ];
  }
  if (plan.embedded?.controlKey) {
    return [`// ${EMBEDDED_WARNING}`, `const CONTROL_KEY = ${js(plan.embedded.controlKey)};`];
  }
  return [
    `const CONTROL_KEY = process.env.${SECRET_ENV.controlKey};`,
    `if (!CONTROL_KEY) throw new Error('Set ${SECRET_ENV.controlKey} to the merchant control key.');`,
  ];
}

function dryRun(variable: string): string[] {
  return [
    `if (process.env.${RUN_ENV.dryRun}) {`,
    `  console.log(\`signature: \${${variable}}\`);`,
    '  process.exit(0);',
    '}',
  ];
}

/** Node 18+ (fetch + node:crypto), an ES module: signs at run time. */
export function renderNode(plan: SnippetPlan): string {
  const file = `${plan.operation.path.replace(/\W+/g, '-')}.mjs`;
  const rsa = plan.scheme === 'oauth-rsa-sha256';
  const env = rsa ? `${SECRET_ENV.privateKeyFile}=private.pem` : `${SECRET_ENV.controlKey}=…`;
  const imports =
    plan.scheme === 'control'
      ? "import { createHash } from 'node:crypto';"
      : rsa
        ? `import { createSign, randomBytes } from 'node:crypto';${plan.embedded?.privateKeyPem ? '' : "\nimport { readFileSync } from 'node:fs';"}`
        : "import { createHmac, randomBytes } from 'node:crypto';";
  const lines = [
    ...headerLines(plan, plan.embedded ? `node ${file}` : `${env} node ${file}`).map((l) => `// ${l}`),
    imports,
    '',
    `const BASE_URL = ${js(plan.baseUrl)}; // lowercase host, no default port: the signed URL is built from it`,
    `const ENDPOINT_ID = ${js(plan.endpoint.id)};${plan.endpoint.kind === 'group' ? ' // an endpoint group id' : ''}`,
    `const URL_ = \`\${BASE_URL}/api/${plan.operation.path}/${plan.endpoint.kind === 'group' ? 'group/' : ''}\${ENDPOINT_ID}\`;`,
    `const LOGIN = process.env.MERCHANT_LOGIN || ${js(plan.login)};`,
    ...secretLines(plan),
    '',
    ...paramsLiteral(plan),
    '',
    '/** RFC 3986 percent-encoding (UTF-8; space is %20, never +). */',
    "const pct = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());",
    'const body = params.map(([n, v]) => `${pct(n)}=${pct(v)}`);',
    "const headers = { Accept: 'application/vnd.pay+json', 'Content-Type': 'application/x-www-form-urlencoded' };",
    '',
  ];
  if (plan.scheme === 'control') {
    lines.push(
      "const param = (name) => params.find(([n]) => n === name)?.[1] ?? '';",
      '/** Decimal amount to minor units with string arithmetic (10.42 -> 1042), never a float. */',
      'function toMinorUnits(amount) {',
      "  if (amount === '') return '';",
      '  const m = /^(\\d+)(?:\\.(\\d{1,2}))?$/.exec(amount);',
      '  if (!m) throw new Error(`amount "${amount}" is not a decimal amount such as 10.42`);',
      "  return (BigInt(m[1]) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'))).toString();",
      '}',
      '// control = lowercase hex SHA-1 of the terms, concatenated without separators, then the control key.',
      'const signingInput = [',
      ...termExpression(plan),
      "].join('');",
      "const control = createHash('sha1').update(signingInput + CONTROL_KEY, 'utf8').digest('hex');",
      ...dryRun('control'),
      'body.push(`control=${control}`);',
    );
  } else {
    lines.push(
      'const oauth = {',
      '  oauth_consumer_key: LOGIN,',
      plan.pinned
        ? `  oauth_nonce: process.env.${RUN_ENV.nonce} || ${js(plan.pinned.nonce)}, // pinned`
        : `  oauth_nonce: process.env.${RUN_ENV.nonce} || randomBytes(16).toString('hex'), // cryptographically secure`,
      `  oauth_signature_method: ${js(rsa ? 'RSA-SHA256' : 'HMAC-SHA1')},`,
      plan.pinned
        ? `  oauth_timestamp: process.env.${RUN_ENV.timestamp} || ${js(plan.pinned.timestamp)}, // pinned`
        : `  oauth_timestamp: process.env.${RUN_ENV.timestamp} || Math.floor(Date.now() / 1000).toString(),`,
      "  oauth_version: '1.0',",
      '};',
      '// Body and oauth_* pairs, percent-encoded, sorted by name then value (byte order), joined with &.',
      'const pairs = [...params, ...Object.entries(oauth)].map(([n, v]) => [pct(n), pct(v)]);',
      'const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);',
      'pairs.sort((a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1]));',
      "const parameterString = pairs.map(([n, v]) => `${n}=${v}`).join('&');",
      'const baseString = `POST&${pct(URL_)}&${pct(parameterString)}`;',
      rsa
        ? "const signature = createSign('RSA-SHA256').update(baseString, 'utf8').sign(PRIVATE_KEY_PEM, 'base64');"
        : "const signature = createHmac('sha1', `${pct(CONTROL_KEY)}&`).update(baseString, 'utf8').digest('base64');",
      ...dryRun('signature'),
      'const header = { ...oauth, oauth_signature: signature };',
      "const order = ['oauth_consumer_key', 'oauth_nonce', 'oauth_signature', 'oauth_signature_method', 'oauth_timestamp', 'oauth_version'];",
      "headers.Authorization = 'OAuth ' + order.map((n) => `${n}=\"${pct(header[n])}\"`).join(', ');",
    );
  }
  lines.push(
    '',
    "const response = await fetch(URL_, { method: 'POST', headers, body: body.join('&') });",
    'console.log(`HTTP ${response.status}`);',
    'console.log(await response.text());',
    '',
  );
  return lines.join('\n');
}
