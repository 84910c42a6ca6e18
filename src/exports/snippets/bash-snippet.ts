import { shellQuote } from '../../core/index.ts';
import { EMBEDDED_WARNING, headerLines, RUN_ENV, SECRET_ENV, type SnippetPlan } from './snippet-plan.ts';

/** RFC 3986 percent-encoding in pure bash (no jq, no python): byte by byte in the C locale. */
const PCT_FUNCTION = [
  '# RFC 3986 percent-encoding of the UTF-8 bytes of $1 into $E: A-Z a-z 0-9 - . _ ~ stay, space is %20.',
  'pct() {',
  '  local LC_ALL=C s="$1" c d i',
  "  E=''",
  '  for (( i = 0; i < ${#s}; i++ )); do',
  '    c="${s:i:1}"',
  '    case "$c" in',
  '      [A-Za-z0-9._~-]) E+="$c" ;;',
  `      *) printf -v d '%d' "'$c"; printf -v c '%%%02X' $(( d & 255 )); E+="$c" ;;`,
  '    esac',
  '  done',
  '}',
];

const PARAM_FUNCTION = [
  '# The value of body parameter $1 into $P (the empty string when it is not sent).',
  'param() {',
  "  local i; P=''",
  '  for i in "${!NAMES[@]}"; do',
  '    if [[ "${NAMES[i]}" == "$1" ]]; then P="${VALUES[i]}"; return; fi',
  '  done',
  '}',
];

const MINOR_FUNCTION = [
  '# Decimal amount to minor units with string arithmetic only (10.42 -> 1042; never a float).',
  'to_minor() {',
  '  local a="$1" m',
  '  if [[ -z "$a" ]]; then P=\'\'; return; fi',
  '  if [[ ! "$a" =~ ^([0-9]+)(\\.([0-9]{1,2}))?$ ]]; then',
  '    echo "amount \\"$a\\" is not a decimal amount such as 10.42" >&2; exit 2',
  '  fi',
  '  m="${BASH_REMATCH[3]}00"',
  '  m="${BASH_REMATCH[1]}${m:0:2}"',
  '  m="${m#"${m%%[!0]*}"}"',
  '  P="${m:-0}"',
  '}',
];

function assignArrays(plan: SnippetPlan): string[] {
  const names = plan.params.map((p) => `  ${shellQuote(p.name)}`);
  const values = plan.params.map((p) => `  ${p.isLogin ? '"$LOGIN"' : shellQuote(p.value)}`);
  return ['NAMES=(', ...names, ')', 'VALUES=(', ...values, ')'];
}

function secretLines(plan: SnippetPlan): string[] {
  const out: string[] = [];
  if (plan.scheme === 'oauth-rsa-sha256') {
    if (plan.embedded?.privateKeyPem) {
      out.push(
        `# ${EMBEDDED_WARNING}`,
        `${SECRET_ENV.privateKeyFile}="$(mktemp)"`,
        `trap 'rm -f "$${SECRET_ENV.privateKeyFile}"' EXIT`,
        `cat > "$${SECRET_ENV.privateKeyFile}" <<'PRIVATE_KEY_PEM'`,
        plan.embedded.privateKeyPem.trim(),
        'PRIVATE_KEY_PEM',
      );
    } else {
      out.push(
        `: "\${${SECRET_ENV.privateKeyFile}:?Set ${SECRET_ENV.privateKeyFile} to the path of the merchant private key (PEM)}"`,
        `[[ -r "$${SECRET_ENV.privateKeyFile}" ]] || { echo "Cannot read $${SECRET_ENV.privateKeyFile}: give the path of a PEM private key." >&2; exit 2; }`,
      );
    }
  } else if (plan.embedded?.controlKey) {
    out.push(`# ${EMBEDDED_WARNING}`, `${SECRET_ENV.controlKey}=${shellQuote(plan.embedded.controlKey)}`);
  } else {
    out.push(`: "\${${SECRET_ENV.controlKey}:?Set ${SECRET_ENV.controlKey} to the merchant control key}"`);
  }
  return out;
}

function controlLines(plan: SnippetPlan): string[] {
  const lines = ["SIGNING_INPUT=''"];
  for (const t of plan.formula) {
    if (t.kind === 'login') lines.push('SIGNING_INPUT+="$LOGIN"');
    else if (t.kind === 'endpointId') lines.push('SIGNING_INPUT+="$ENDPOINT_ID"');
    else if (t.minorUnits) lines.push(`param ${shellQuote(t.name)}; to_minor "$P"; SIGNING_INPUT+="$P"`);
    else lines.push(`param ${shellQuote(t.name)}; SIGNING_INPUT+="$P"`);
  }
  return [
    '# control = lowercase hex SHA-1 of the terms, concatenated without separators, then the control key.',
    ...lines,
    `CONTROL="$(printf '%s' "$SIGNING_INPUT$${SECRET_ENV.controlKey}" | openssl dgst -sha1 -r)"`,
    'CONTROL="${CONTROL%% *}"',
    ...dryRun('CONTROL'),
    '',
    "BODY=''",
    'for i in "${!NAMES[@]}"; do',
    '  pct "${NAMES[i]}"; n="$E"; pct "${VALUES[i]}"',
    '  BODY+="${BODY:+&}$n=$E"',
    'done',
    'BODY+="${BODY:+&}control=$CONTROL"',
    '',
    'RESPONSE="$(curl -sS -X POST "$URL" \\',
    "  -H 'Accept: application/vnd.pay+json' \\",
    "  -H 'Content-Type: application/x-www-form-urlencoded' \\",
    `  --data-raw "$BODY" -w $'\\n%{http_code}')"`,
  ];
}

function oauthLines(plan: SnippetPlan): string[] {
  const rsa = plan.scheme === 'oauth-rsa-sha256';
  const method = rsa ? 'RSA-SHA256' : 'HMAC-SHA1';
  const sign = rsa
    ? `SIGNATURE="$(printf '%s' "$BASE_STRING" | openssl dgst -sha256 -sign "$${SECRET_ENV.privateKeyFile}" | openssl base64 -A)"`
    : `SIGNATURE="$(printf '%s' "$BASE_STRING" | openssl dgst -sha1 -hmac "$SIGNING_KEY" -binary | openssl base64 -A)"`;
  return [
    ...(plan.pinned
      ? [
          `NONCE="\${${RUN_ENV.nonce}:-}"; [[ -n "$NONCE" ]] || NONCE=${shellQuote(plan.pinned.nonce)}   # pinned`,
          `TIMESTAMP="\${${RUN_ENV.timestamp}:-}"; [[ -n "$TIMESTAMP" ]] || TIMESTAMP=${shellQuote(plan.pinned.timestamp)}   # pinned`,
        ]
      : [
          `NONCE="\${${RUN_ENV.nonce}:-}"; [[ -n "$NONCE" ]] || NONCE="$(openssl rand -hex 16)"   # from a cryptographically secure generator`,
          `TIMESTAMP="\${${RUN_ENV.timestamp}:-}"; [[ -n "$TIMESTAMP" ]] || TIMESTAMP="$(date +%s)"`,
        ]),
    `OAUTH_NAMES=(oauth_consumer_key oauth_nonce oauth_signature_method oauth_timestamp oauth_version)`,
    `OAUTH_VALUES=("$LOGIN" "$NONCE" '${method}' "$TIMESTAMP" '1.0')`,
    '',
    '# Signature parameters: body and oauth_* pairs, percent-encoded, sorted by name then value (byte order).',
    "LINES=''",
    'for i in "${!NAMES[@]}"; do pct "${NAMES[i]}"; n="$E"; pct "${VALUES[i]}"; LINES+="$n"$\'\\t\'"$E"$\'\\n\'; done',
    'for i in "${!OAUTH_NAMES[@]}"; do pct "${OAUTH_NAMES[i]}"; n="$E"; pct "${OAUTH_VALUES[i]}"; LINES+="$n"$\'\\t\'"$E"$\'\\n\'; done',
    "PARAMETERS=''",
    "while IFS=$'\\t' read -r n v; do PARAMETERS+=\"${PARAMETERS:+&}$n=$v\"; done < <(printf '%s' \"$LINES\" | LC_ALL=C sort -t $'\\t' -k1,1 -k2,2)",
    'pct "$URL"; ENCODED_URL="$E"; pct "$PARAMETERS"',
    'BASE_STRING="POST&$ENCODED_URL&$E"',
    ...(rsa
      ? []
      : [
          `pct "$${SECRET_ENV.controlKey}"; SIGNING_KEY="$E&"   # consumer secret & empty token secret`,
          '# Note: openssl receives the key on its command line, visible to other users of this machine while it runs.',
        ]),
    sign,
    ...dryRun('SIGNATURE'),
    '',
    "AUTHORIZATION='OAuth '",
    'for i in "${!OAUTH_NAMES[@]}"; do',
    '  [[ "${OAUTH_NAMES[i]}" == oauth_signature_method ]] && { pct "$SIGNATURE"; AUTHORIZATION+="oauth_signature=\\"$E\\", "; }',
    '  pct "${OAUTH_VALUES[i]}"; AUTHORIZATION+="${OAUTH_NAMES[i]}=\\"$E\\", "',
    'done',
    'AUTHORIZATION="${AUTHORIZATION%, }"',
    '',
    "BODY=''",
    'for i in "${!NAMES[@]}"; do',
    '  pct "${NAMES[i]}"; n="$E"; pct "${VALUES[i]}"',
    '  BODY+="${BODY:+&}$n=$E"',
    'done',
    '',
    'RESPONSE="$(curl -sS -X POST "$URL" \\',
    "  -H 'Accept: application/vnd.pay+json' \\",
    "  -H 'Content-Type: application/x-www-form-urlencoded' \\",
    '  -H "Authorization: $AUTHORIZATION" \\',
    `  --data-raw "$BODY" -w $'\\n%{http_code}')"`,
  ];
}

/** bash + curl + openssl: signs at run time; needs nothing else (no jq, no python). */
export function renderBash(plan: SnippetPlan): string {
  const file = `${plan.operation.path.replace(/\W+/g, '-')}.sh`;
  const runEnv =
    plan.scheme === 'oauth-rsa-sha256'
      ? `${SECRET_ENV.privateKeyFile}=private.pem`
      : `${SECRET_ENV.controlKey}=…`;
  const lines = [
    '#!/usr/bin/env bash',
    ...headerLines(plan, plan.embedded ? `bash ${file}` : `${runEnv} bash ${file}`).map((l) => `# ${l}`),
    '# Needs bash (tested with bash 5), curl and openssl; nothing else (no jq, no python).',
    'set -euo pipefail',
    '',
    `BASE_URL=${shellQuote(plan.baseUrl)}   # lowercase host, no default port: the signed URL is built from it`,
    `ENDPOINT_ID=${shellQuote(plan.endpoint.id)}${plan.endpoint.kind === 'group' ? '   # an endpoint group id' : ''}`,
    `URL="$BASE_URL/api/${plan.operation.path}/${plan.endpoint.kind === 'group' ? 'group/' : ''}$ENDPOINT_ID"`,
    `LOGIN="\${MERCHANT_LOGIN:-}"; [[ -n "$LOGIN" ]] || LOGIN=${shellQuote(plan.login)}`,
    ...secretLines(plan),
    '',
    ...assignArrays(plan),
    '',
    ...PCT_FUNCTION,
    '',
    ...(plan.scheme === 'control' ? [...PARAM_FUNCTION, '', ...MINOR_FUNCTION, ''] : []),
    ...(plan.scheme === 'control' ? controlLines(plan) : oauthLines(plan)),
    '',
    'echo "HTTP ${RESPONSE##*$\'\\n\'}"',
    'echo "${RESPONSE%$\'\\n\'*}"',
    '',
  ];
  return lines.join('\n');
}

function dryRun(variable: string): string[] {
  return [`if [[ -n "\${${RUN_ENV.dryRun}:-}" ]]; then echo "signature: $${variable}"; exit 0; fi`];
}
