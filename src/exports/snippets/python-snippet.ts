import { EMBEDDED_WARNING, headerLines, RUN_ENV, SECRET_ENV, type SnippetPlan } from './snippet-plan.ts';

/** A Python string literal (JSON's escapes are all valid Python escapes). */
const py = (s: string) => JSON.stringify(s);

function secretLines(plan: SnippetPlan): string[] {
  if (plan.scheme === 'oauth-rsa-sha256') {
    if (plan.embedded?.privateKeyPem) {
      return [`# ${EMBEDDED_WARNING}`, `PRIVATE_KEY_PEM = ${py(plan.embedded.privateKeyPem)}`];
    }
    return [
      `KEY_FILE = os.environ.get(${py(SECRET_ENV.privateKeyFile)})`,
      'if not KEY_FILE:',
      `    sys.exit("Set ${SECRET_ENV.privateKeyFile} to the path of the merchant private key (PEM).")`,
    ];
  }
  if (plan.embedded?.controlKey)
    return [`# ${EMBEDDED_WARNING}`, `CONTROL_KEY = ${py(plan.embedded.controlKey)}`];
  return [
    `CONTROL_KEY = os.environ.get(${py(SECRET_ENV.controlKey)})`,
    'if not CONTROL_KEY:',
    `    sys.exit("Set ${SECRET_ENV.controlKey} to the merchant control key.")`,
  ];
}

function rsaSignLines(embedded: boolean): string[] {
  const head = [
    'def rsa_sha256_base64(text):',
    '    # The Python standard library has no RSA: the signature is made by the openssl command',
    '    # (RSASSA-PKCS1-v1_5 with SHA-256, the same bytes any RSA library gives).',
    '    import subprocess',
  ];
  const run = (keyFile: string, indent: string) => [
    `${indent}out = subprocess.run(["openssl", "dgst", "-sha256", "-sign", ${keyFile}],`,
    `${indent}                     input=text.encode("utf-8"), capture_output=True)`,
    `${indent}if out.returncode != 0:`,
    `${indent}    sys.exit("openssl could not sign: " + out.stderr.decode("utf-8", "replace"))`,
  ];
  if (!embedded)
    return [...head, ...run('KEY_FILE', '    '), '    return base64.b64encode(out.stdout).decode("ascii")'];
  return [
    ...head,
    '    import tempfile',
    '    with tempfile.NamedTemporaryFile("w", suffix=".pem", delete=False) as tmp:',
    '        tmp.write(PRIVATE_KEY_PEM)',
    '    try:',
    ...run('tmp.name', '        '),
    '    finally:',
    '        os.unlink(tmp.name)',
    '    return base64.b64encode(out.stdout).decode("ascii")',
  ];
}

/** Python 3 with the standard library only (urllib, hashlib, hmac, secrets); RSA via openssl. */
export function renderPython(plan: SnippetPlan): string {
  const file = `${plan.operation.path.replace(/\W+/g, '_')}.py`;
  const rsa = plan.scheme === 'oauth-rsa-sha256';
  const env = rsa ? `${SECRET_ENV.privateKeyFile}=private.pem` : `${SECRET_ENV.controlKey}=…`;
  const lines = [
    ...headerLines(plan, plan.embedded ? `python3 ${file}` : `${env} python3 ${file}`).map((l) => `# ${l}`),
    'import base64, hashlib, hmac, os, re, secrets, sys, time, urllib.error, urllib.request',
    'from urllib.parse import quote',
    '',
    `BASE_URL = ${py(plan.baseUrl)}  # lowercase host, no default port: the signed URL is built from it`,
    `ENDPOINT_ID = ${py(plan.endpoint.id)}${plan.endpoint.kind === 'group' ? '  # an endpoint group id' : ''}`,
    `URL = BASE_URL + "/api/${plan.operation.path}/${plan.endpoint.kind === 'group' ? 'group/' : ''}" + ENDPOINT_ID`,
    `LOGIN = os.environ.get("MERCHANT_LOGIN") or ${py(plan.login)}`,
    ...secretLines(plan),
    '',
    'params = [',
    ...plan.params.map((p) => `    (${py(p.name)}, ${p.isLogin ? 'LOGIN' : py(p.value)}),`),
    ']',
    '',
    '',
    'def pct(s):',
    '    """RFC 3986 percent-encoding of the UTF-8 bytes (space is %20, never +)."""',
    '    return quote(s, safe="~")',
    '',
    '',
    'body = [pct(n) + "=" + pct(v) for n, v in params]',
    'headers = {"Accept": "application/vnd.pay+json", "Content-Type": "application/x-www-form-urlencoded"}',
    '',
  ];
  if (plan.scheme === 'control') {
    lines.push(
      '',
      'def param(name):',
      '    return next((v for n, v in params if n == name), "")',
      '',
      '',
      'def to_minor_units(amount):',
      '    """Decimal amount to minor units with string arithmetic (10.42 -> 1042), never a float."""',
      '    if amount == "":',
      '        return ""',
      '    m = re.fullmatch(r"([0-9]+)(?:\\.([0-9]{1,2}))?", amount)',
      '    if not m:',
      '        sys.exit(\'amount "%s" is not a decimal amount such as 10.42\' % amount)',
      '    return str(int(m.group(1)) * 100 + int((m.group(2) or "").ljust(2, "0")))',
      '',
      '',
      '# control = lowercase hex SHA-1 of the terms, concatenated without separators, then the control key.',
      'signing_input = "".join([',
      ...plan.formula.map((t) =>
        t.kind === 'login'
          ? '    LOGIN,'
          : t.kind === 'endpointId'
            ? '    ENDPOINT_ID,'
            : t.minorUnits
              ? `    to_minor_units(param(${py(t.name)})),`
              : `    param(${py(t.name)}),`,
      ),
      '])',
      'control = hashlib.sha1((signing_input + CONTROL_KEY).encode("utf-8")).hexdigest()',
      ...dryRun('control'),
      'body.append("control=" + control)',
    );
  } else {
    if (rsa) lines.push('', ...rsaSignLines(Boolean(plan.embedded?.privateKeyPem)), '', '');
    lines.push(
      'oauth = {',
      '    "oauth_consumer_key": LOGIN,',
      `    "oauth_nonce": os.environ.get("${RUN_ENV.nonce}") or ${plan.pinned ? `${py(plan.pinned.nonce)},  # pinned` : 'secrets.token_hex(16),  # cryptographically secure'}`,
      `    "oauth_signature_method": ${py(rsa ? 'RSA-SHA256' : 'HMAC-SHA1')},`,
      `    "oauth_timestamp": os.environ.get("${RUN_ENV.timestamp}") or ${plan.pinned ? `${py(plan.pinned.timestamp)},  # pinned` : 'str(int(time.time())),'}`,
      '    "oauth_version": "1.0",',
      '}',
      '# Body and oauth_* pairs, percent-encoded, sorted by name then value (byte order), joined with &.',
      'pairs = sorted((pct(n), pct(v)) for n, v in params + list(oauth.items()))',
      'parameter_string = "&".join(n + "=" + v for n, v in pairs)',
      'base_string = "POST&" + pct(URL) + "&" + pct(parameter_string)',
      rsa
        ? 'signature = rsa_sha256_base64(base_string)'
        : 'signature = base64.b64encode(hmac.new((pct(CONTROL_KEY) + "&").encode("utf-8"), base_string.encode("utf-8"), hashlib.sha1).digest()).decode("ascii")',
      ...dryRun('signature'),
      'header = dict(oauth, oauth_signature=signature)',
      'order = ["oauth_consumer_key", "oauth_nonce", "oauth_signature", "oauth_signature_method", "oauth_timestamp", "oauth_version"]',
      'headers["Authorization"] = "OAuth " + ", ".join(\'%s="%s"\' % (n, pct(header[n])) for n in order)',
    );
  }
  lines.push(
    '',
    'request = urllib.request.Request(URL, data="&".join(body).encode("ascii"), headers=headers, method="POST")',
    'try:',
    '    with urllib.request.urlopen(request) as response:',
    '        status, text = response.status, response.read().decode("utf-8")',
    'except urllib.error.HTTPError as error:  # 4xx and 5xx answers still carry a body',
    '    status, text = error.code, error.read().decode("utf-8")',
    'print("HTTP %d" % status)',
    'print(text)',
    '',
  );
  return lines.join('\n');
}

function dryRun(variable: string): string[] {
  return [
    `if os.environ.get("${RUN_ENV.dryRun}"):`,
    `    print("signature: " + ${variable})`,
    '    sys.exit(0)',
  ];
}
