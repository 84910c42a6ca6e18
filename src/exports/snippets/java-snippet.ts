import { EMBEDDED_WARNING, headerLines, RUN_ENV, SECRET_ENV, type SnippetPlan } from './snippet-plan.ts';

/**
 * A Java (or C#) string literal: JSON's escapes are valid in both, and every non-ASCII character is
 * written as \uXXXX so the source file's encoding never matters.
 */
export function cLikeString(s: string): string {
  return JSON.stringify(s).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
const j = cLikeString;

function secretLines(plan: SnippetPlan): string[] {
  if (plan.scheme === 'oauth-rsa-sha256') {
    if (plan.embedded?.privateKeyPem) {
      return [
        `        // ${EMBEDDED_WARNING}`,
        `        String privateKeyPem = ${j(plan.embedded.privateKeyPem)};`,
      ];
    }
    return [
      `        String keyFile = System.getenv(${j(SECRET_ENV.privateKeyFile)});`,
      '        if (keyFile == null || keyFile.isEmpty()) {',
      `            System.err.println("Set ${SECRET_ENV.privateKeyFile} to the path of the merchant private key (PEM).");`,
      '            System.exit(2);',
      '        }',
      '        String privateKeyPem = Files.readString(Path.of(keyFile));',
    ];
  }
  if (plan.embedded?.controlKey) {
    return [`        // ${EMBEDDED_WARNING}`, `        String controlKey = ${j(plan.embedded.controlKey)};`];
  }
  return [
    `        String controlKey = System.getenv(${j(SECRET_ENV.controlKey)});`,
    '        if (controlKey == null || controlKey.isEmpty()) {',
    `            System.err.println("Set ${SECRET_ENV.controlKey} to the merchant control key.");`,
    '            System.exit(2);',
    '        }',
  ];
}

/** Java 17 single-file program (java.net.http, MessageDigest, Mac, Signature, SecureRandom). */
export function renderJava(plan: SnippetPlan): string {
  const rsa = plan.scheme === 'oauth-rsa-sha256';
  const env = rsa ? `${SECRET_ENV.privateKeyFile}=private.pem` : `${SECRET_ENV.controlKey}=…`;
  const lines = [
    ...headerLines(plan, plan.embedded ? 'java PayRequest.java' : `${env} java PayRequest.java`).map(
      (l) => `// ${l}`,
    ),
    '// Needs Java 17+ (single-file launch: no build step).',
    'import java.math.BigDecimal;',
    'import java.net.URI;',
    'import java.net.URLEncoder;',
    'import java.net.http.HttpClient;',
    'import java.net.http.HttpRequest;',
    'import java.net.http.HttpResponse;',
    'import java.nio.charset.StandardCharsets;',
    'import java.nio.file.Files;',
    'import java.nio.file.Path;',
    'import java.security.KeyFactory;',
    'import java.security.MessageDigest;',
    'import java.security.SecureRandom;',
    'import java.security.Signature;',
    'import java.security.spec.PKCS8EncodedKeySpec;',
    'import java.time.Instant;',
    'import java.util.ArrayList;',
    'import java.util.Base64;',
    'import java.util.Comparator;',
    'import java.util.HexFormat;',
    'import java.util.LinkedHashMap;',
    'import java.util.List;',
    'import java.util.Map;',
    'import java.util.stream.Collectors;',
    'import javax.crypto.Mac;',
    'import javax.crypto.spec.SecretKeySpec;',
    '',
    'class PayRequest {',
    `    static final String BASE_URL = ${j(plan.baseUrl)}; // lowercase host, no default port: the signed URL is built from it`,
    `    static final String ENDPOINT_ID = ${j(plan.endpoint.id)};${plan.endpoint.kind === 'group' ? ' // an endpoint group id' : ''}`,
    `    static final String URL = BASE_URL + ${j(`/api/${plan.operation.path}/${plan.endpoint.kind === 'group' ? 'group/' : ''}`)} + ENDPOINT_ID;`,
    `    static final String LOGIN = System.getenv().getOrDefault("MERCHANT_LOGIN", "").isEmpty() ? ${j(plan.login)} : System.getenv("MERCHANT_LOGIN");`,
    '    static final String[][] PARAMS = {',
    ...plan.params.map((p) => `        {${j(p.name)}, ${p.isLogin ? 'LOGIN' : j(p.value)}},`),
    '    };',
    '',
    '    static String envOr(String name, String fallback) {',
    '        String v = System.getenv(name);',
    '        return v == null || v.isEmpty() ? fallback : v;',
    '    }',
    '',
    '    /** RFC 3986 percent-encoding of the UTF-8 bytes (space is %20, never +). */',
    '    static String pct(String s) {',
    '        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20").replace("*", "%2A").replace("%7E", "~");',
    '    }',
    '',
  ];
  if (plan.scheme === 'control') {
    lines.push(
      '    static String param(String name) {',
      '        for (String[] p : PARAMS) if (p[0].equals(name)) return p[1];',
      '        return "";',
      '    }',
      '',
      '    /** Decimal amount to minor units with exact decimal arithmetic (10.42 -> 1042), never a double. */',
      '    static String toMinorUnits(String amount) {',
      '        if (amount.isEmpty()) return "";',
      '        if (!amount.matches("\\\\d+(\\\\.\\\\d{1,2})?")) {',
      '            throw new IllegalArgumentException("amount \\"" + amount + "\\" is not a decimal amount such as 10.42");',
      '        }',
      '        return new BigDecimal(amount).movePointRight(2).toBigIntegerExact().toString();',
      '    }',
      '',
    );
  } else if (rsa) {
    lines.push(
      '    static java.security.PrivateKey readPrivateKey(String pem) throws Exception {',
      '        if (pem.contains("BEGIN RSA PRIVATE KEY")) {',
      '            throw new IllegalArgumentException("The key is PKCS#1 (BEGIN RSA PRIVATE KEY); Java reads PKCS#8: convert it with "',
      '                + "openssl pkcs8 -topk8 -nocrypt -in key.pem -out key-pkcs8.pem");',
      '        }',
      '        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\\\s", "");',
      '        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));',
      '    }',
      '',
    );
  }
  lines.push('    public static void main(String[] args) throws Exception {', ...secretLines(plan));
  lines.push(
    '        List<String> body = new ArrayList<>();',
    '        for (String[] p : PARAMS) body.add(pct(p[0]) + "=" + pct(p[1]));',
    '        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(URL))',
    '            .header("Accept", "application/vnd.pay+json")',
    '            .header("Content-Type", "application/x-www-form-urlencoded");',
    '',
  );
  if (plan.scheme === 'control') {
    lines.push(
      '        // control = lowercase hex SHA-1 of the terms, concatenated without separators, then the control key.',
      plan.formula.length === 0
        ? '        String signingInput = "";'
        : '        String signingInput = String.join("",',
      plan.formula
        .map(
          (t) =>
            `            ${
              t.kind === 'login'
                ? 'LOGIN'
                : t.kind === 'endpointId'
                  ? 'ENDPOINT_ID'
                  : t.minorUnits
                    ? `toMinorUnits(param(${j(t.name)}))`
                    : `param(${j(t.name)})`
            }`,
        )
        .join(',\n') + (plan.formula.length === 0 ? '' : ');'),
      '        byte[] digest = MessageDigest.getInstance("SHA-1").digest((signingInput + controlKey).getBytes(StandardCharsets.UTF_8));',
      '        String control = HexFormat.of().formatHex(digest);',
      ...dryRun('control'),
      '        body.add("control=" + control);',
    );
  } else {
    lines.push(
      '        byte[] nonce = new byte[16];',
      '        new SecureRandom().nextBytes(nonce); // cryptographically secure',
      '        Map<String, String> oauth = new LinkedHashMap<>();',
      '        oauth.put("oauth_consumer_key", LOGIN);',
      `        oauth.put("oauth_nonce", envOr("${RUN_ENV.nonce}", ${plan.pinned ? `${j(plan.pinned.nonce)})); // pinned` : 'HexFormat.of().formatHex(nonce)));'}`,
      `        oauth.put("oauth_signature_method", ${j(rsa ? 'RSA-SHA256' : 'HMAC-SHA1')});`,
      `        oauth.put("oauth_timestamp", envOr("${RUN_ENV.timestamp}", ${plan.pinned ? `${j(plan.pinned.timestamp)})); // pinned` : 'Long.toString(Instant.now().getEpochSecond())));'}`,
      '        oauth.put("oauth_version", "1.0");',
      '        // Body and oauth_* pairs, percent-encoded, sorted by name then value (byte order), joined with &.',
      '        List<String[]> pairs = new ArrayList<>();',
      '        for (String[] p : PARAMS) pairs.add(new String[] {pct(p[0]), pct(p[1])});',
      '        for (Map.Entry<String, String> e : oauth.entrySet()) pairs.add(new String[] {pct(e.getKey()), pct(e.getValue())});',
      '        pairs.sort(Comparator.comparing((String[] p) -> p[0]).thenComparing(p -> p[1]));',
      '        String parameterString = pairs.stream().map(p -> p[0] + "=" + p[1]).collect(Collectors.joining("&"));',
      '        String baseString = "POST&" + pct(URL) + "&" + pct(parameterString);',
      ...(rsa
        ? [
            '        Signature signer = Signature.getInstance("SHA256withRSA");',
            '        signer.initSign(readPrivateKey(privateKeyPem));',
            '        signer.update(baseString.getBytes(StandardCharsets.UTF_8));',
            '        String signature = Base64.getEncoder().encodeToString(signer.sign());',
          ]
        : [
            '        Mac mac = Mac.getInstance("HmacSHA1");',
            '        mac.init(new SecretKeySpec((pct(controlKey) + "&").getBytes(StandardCharsets.UTF_8), "HmacSHA1"));',
            '        String signature = Base64.getEncoder().encodeToString(mac.doFinal(baseString.getBytes(StandardCharsets.UTF_8)));',
          ]),
      ...dryRun('signature'),
      '        Map<String, String> header = new LinkedHashMap<>(oauth);',
      '        header.put("oauth_signature", signature);',
      '        String authorization = "OAuth " + List.of("oauth_consumer_key", "oauth_nonce", "oauth_signature", "oauth_signature_method", "oauth_timestamp", "oauth_version")',
      '            .stream().map(n -> n + "=\\"" + pct(header.get(n)) + "\\"").collect(Collectors.joining(", "));',
      '        request.header("Authorization", authorization);',
    );
  }
  lines.push(
    '',
    '        request.POST(HttpRequest.BodyPublishers.ofString(String.join("&", body)));',
    '        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();',
    '        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());',
    '        System.out.println("HTTP " + response.statusCode());',
    '        System.out.println(response.body());',
    '    }',
    '}',
    '',
  );
  return lines.join('\n');
}

function dryRun(variable: string): string[] {
  return [
    `        if (System.getenv("${RUN_ENV.dryRun}") != null && !System.getenv("${RUN_ENV.dryRun}").isEmpty()) {`,
    `            System.out.println("signature: " + ${variable});`,
    '            return;',
    '        }',
  ];
}
