import { EMBEDDED_WARNING, headerLines, RUN_ENV, SECRET_ENV, type SnippetPlan } from './snippet-plan.ts';

/** A PHP single-quoted string literal: only `\` and `'` are escaped; bytes are taken as they are. */
const php = (s: string) => `'${s.replace(/[\\']/g, '\\$&')}'`;

function secretLines(plan: SnippetPlan): string[] {
  const fail = (msg: string) => `    fwrite(STDERR, ${php(msg)} . PHP_EOL);`;
  if (plan.scheme === 'oauth-rsa-sha256') {
    const source = plan.embedded?.privateKeyPem
      ? [`// ${EMBEDDED_WARNING}`, `$privateKeyPem = ${php(plan.embedded.privateKeyPem)};`]
      : [
          `$keyFile = getenv('${SECRET_ENV.privateKeyFile}');`,
          "$privateKeyPem = ($keyFile === false || $keyFile === '') ? false : @file_get_contents($keyFile);",
        ];
    return [
      ...source,
      '$privateKey = $privateKeyPem === false ? false : openssl_pkey_get_private($privateKeyPem);',
      'if ($privateKey === false) {',
      fail(`Set ${SECRET_ENV.privateKeyFile} to the path of a readable PEM private key.`),
      '    exit(2);',
      '}',
    ];
  }
  if (plan.embedded?.controlKey)
    return [`// ${EMBEDDED_WARNING}`, `$controlKey = ${php(plan.embedded.controlKey)};`];
  return [
    `$controlKey = getenv('${SECRET_ENV.controlKey}');`,
    "if ($controlKey === false || $controlKey === '') {",
    fail(`Set ${SECRET_ENV.controlKey} to the merchant control key.`),
    '    exit(2);',
    '}',
  ];
}

/** PHP 7.4+ (hash, hash_hmac, openssl_sign, random_bytes; no curl extension needed). */
export function renderPhp(plan: SnippetPlan): string {
  const file = `${plan.operation.path.replace(/\W+/g, '-')}.php`;
  const rsa = plan.scheme === 'oauth-rsa-sha256';
  const env = rsa ? `${SECRET_ENV.privateKeyFile}=private.pem` : `${SECRET_ENV.controlKey}=…`;
  const lines = [
    '<?php',
    ...headerLines(plan, plan.embedded ? `php ${file}` : `${env} php ${file}`).map((l) => `// ${l}`),
    'declare(strict_types=1);',
    '',
    `$baseUrl = ${php(plan.baseUrl)}; // lowercase host, no default port: the signed URL is built from it`,
    `$endpointId = ${php(plan.endpoint.id)};${plan.endpoint.kind === 'group' ? ' // an endpoint group id' : ''}`,
    `$url = $baseUrl . '/api/${plan.operation.path}/${plan.endpoint.kind === 'group' ? 'group/' : ''}' . $endpointId;`,
    `$login = getenv('MERCHANT_LOGIN') ?: ${php(plan.login)};`,
    ...secretLines(plan),
    '',
    '$params = [',
    ...plan.params.map((p) => `    [${php(p.name)}, ${p.isLogin ? '$login' : php(p.value)}],`),
    '];',
    '',
    '/** RFC 3986 percent-encoding (space is %20, never +). */',
    'function pct(string $s): string',
    '{',
    '    return rawurlencode($s);',
    '}',
    '',
    "$body = array_map(fn($p) => pct($p[0]) . '=' . pct($p[1]), $params);",
    "$headers = ['Accept: application/vnd.pay+json', 'Content-Type: application/x-www-form-urlencoded'];",
    '',
  ];
  if (plan.scheme === 'control') {
    lines.push(
      'function param(array $params, string $name): string',
      '{',
      '    foreach ($params as [$n, $v]) {',
      '        if ($n === $name) {',
      '            return $v;',
      '        }',
      '    }',
      "    return '';",
      '}',
      '',
      '/** Decimal amount to minor units with string arithmetic (10.42 -> 1042), never a float. */',
      'function to_minor_units(string $amount): string',
      '{',
      "    if ($amount === '') {",
      "        return '';",
      '    }',
      "    if (!preg_match('/^(\\d+)(?:\\.(\\d{1,2}))?$/', $amount, $m)) {",
      '        fwrite(STDERR, "amount \\"$amount\\" is not a decimal amount such as 10.42" . PHP_EOL);',
      '        exit(2);',
      '    }',
      "    $minor = ltrim($m[1] . str_pad($m[2] ?? '', 2, '0'), '0');",
      "    return $minor === '' ? '0' : $minor;",
      '}',
      '',
      '// control = lowercase hex SHA-1 of the terms, concatenated without separators, then the control key.',
      "$signingInput = implode('', [",
      ...plan.formula.map((t) =>
        t.kind === 'login'
          ? '    $login,'
          : t.kind === 'endpointId'
            ? '    $endpointId,'
            : t.minorUnits
              ? `    to_minor_units(param($params, ${php(t.name)})),`
              : `    param($params, ${php(t.name)}),`,
      ),
      ']);',
      "$control = hash('sha1', $signingInput . $controlKey);",
      ...dryRun('$control'),
      "$body[] = 'control=' . $control;",
    );
  } else {
    lines.push(
      '$oauth = [',
      "    'oauth_consumer_key' => $login,",
      `    'oauth_nonce' => getenv('${RUN_ENV.nonce}') ?: ${plan.pinned ? `${php(plan.pinned.nonce)}, // pinned` : 'bin2hex(random_bytes(16)), // cryptographically secure'}`,
      `    'oauth_signature_method' => '${rsa ? 'RSA-SHA256' : 'HMAC-SHA1'}',`,
      `    'oauth_timestamp' => getenv('${RUN_ENV.timestamp}') ?: ${plan.pinned ? `${php(plan.pinned.timestamp)}, // pinned` : '(string) time(),'}`,
      "    'oauth_version' => '1.0',",
      '];',
      '// Body and oauth_* pairs, percent-encoded, sorted by name then value (byte order), joined with &.',
      '$pairs = [];',
      'foreach ($params as [$n, $v]) {',
      '    $pairs[] = [pct($n), pct($v)];',
      '}',
      'foreach ($oauth as $n => $v) {',
      '    $pairs[] = [pct((string) $n), pct($v)];',
      '}',
      'usort($pairs, fn($a, $b) => strcmp($a[0], $b[0]) ?: strcmp($a[1], $b[1]));',
      "$parameterString = implode('&', array_map(fn($p) => $p[0] . '=' . $p[1], $pairs));",
      "$baseString = 'POST&' . pct($url) . '&' . pct($parameterString);",
      ...(rsa
        ? [
            'if (!openssl_sign($baseString, $rawSignature, $privateKey, OPENSSL_ALGO_SHA256)) {',
            "    fwrite(STDERR, 'openssl_sign failed: ' . openssl_error_string() . PHP_EOL);",
            '    exit(2);',
            '}',
            '$signature = base64_encode($rawSignature);',
          ]
        : ["$signature = base64_encode(hash_hmac('sha1', $baseString, pct($controlKey) . '&', true));"]),
      ...dryRun('$signature'),
      "$header = $oauth + ['oauth_signature' => $signature];",
      "$order = ['oauth_consumer_key', 'oauth_nonce', 'oauth_signature', 'oauth_signature_method', 'oauth_timestamp', 'oauth_version'];",
      "$headers[] = 'Authorization: OAuth ' . implode(', ', array_map(fn($n) => $n . '=\"' . pct($header[$n]) . '\"', $order));",
    );
  }
  lines.push(
    '',
    '$context = stream_context_create([',
    "    'http' => [",
    "        'method' => 'POST',",
    '        \'header\' => implode("\\r\\n", $headers),',
    "        'content' => implode('&', $body),",
    "        'ignore_errors' => true, // read the body of 4xx and 5xx answers too",
    '    ],',
    ']);',
    '$response = file_get_contents($url, false, $context);',
    "$statusLine = (function_exists('http_get_last_response_headers') ? http_get_last_response_headers() : $http_response_header)[0] ?? '';",
    "preg_match('{^HTTP/\\S+\\s+(\\d{3})}', $statusLine, $status);",
    "echo 'HTTP ' . ($status[1] ?? '?') . PHP_EOL;",
    "echo ($response === false ? '' : $response) . PHP_EOL;",
    '',
  );
  return lines.join('\n');
}

function dryRun(variable: string): string[] {
  return [
    `if (getenv('${RUN_ENV.dryRun}')) {`,
    `    echo 'signature: ' . ${variable} . PHP_EOL;`,
    '    exit(0);',
    '}',
  ];
}
