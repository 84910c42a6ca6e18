import { cLikeString as cs } from './java-snippet.ts';
import { EMBEDDED_WARNING, headerLines, RUN_ENV, SECRET_ENV, type SnippetPlan } from './snippet-plan.ts';

function secretLines(plan: SnippetPlan): string[] {
  if (plan.scheme === 'oauth-rsa-sha256') {
    if (plan.embedded?.privateKeyPem) {
      return [`// ${EMBEDDED_WARNING}`, `string privateKeyPem = ${cs(plan.embedded.privateKeyPem)};`];
    }
    return [
      `string? keyFile = Environment.GetEnvironmentVariable(${cs(SECRET_ENV.privateKeyFile)});`,
      'if (string.IsNullOrEmpty(keyFile))',
      '{',
      `    Console.Error.WriteLine("Set ${SECRET_ENV.privateKeyFile} to the path of the merchant private key (PEM).");`,
      '    Environment.Exit(2);',
      '}',
      'string privateKeyPem = File.ReadAllText(keyFile);',
    ];
  }
  if (plan.embedded?.controlKey)
    return [`// ${EMBEDDED_WARNING}`, `string controlKey = ${cs(plan.embedded.controlKey)};`];
  return [
    `string controlKey = Environment.GetEnvironmentVariable(${cs(SECRET_ENV.controlKey)}) ?? "";`,
    'if (controlKey == "")',
    '{',
    `    Console.Error.WriteLine("Set ${SECRET_ENV.controlKey} to the merchant control key.");`,
    '    Environment.Exit(2);',
    '}',
  ];
}

/** C# for .NET 6+ (top-level statements: HttpClient, SHA1, HMACSHA1, RSA.ImportFromPem, RandomNumberGenerator). */
export function renderCsharp(plan: SnippetPlan): string {
  const rsa = plan.scheme === 'oauth-rsa-sha256';
  const env = rsa ? `${SECRET_ENV.privateKeyFile}=private.pem` : `${SECRET_ENV.controlKey}=…`;
  const lines = [
    ...headerLines(
      plan,
      `dotnet new console -o PayRequest, replace Program.cs with this file, then ${plan.embedded ? '' : `${env} `}dotnet run --project PayRequest`,
    ).map((l) => `// ${l}`),
    '// Needs .NET 6 or later.',
    'using System;',
    'using System.Collections.Generic;',
    'using System.Globalization;',
    'using System.IO;',
    'using System.Linq;',
    'using System.Net.Http;',
    'using System.Security.Cryptography;',
    'using System.Text;',
    'using System.Text.RegularExpressions;',
    '',
    `const string BaseUrl = ${cs(plan.baseUrl)}; // lowercase host, no default port: the signed URL is built from it`,
    `const string EndpointId = ${cs(plan.endpoint.id)};${plan.endpoint.kind === 'group' ? ' // an endpoint group id' : ''}`,
    `string url = BaseUrl + ${cs(`/api/${plan.operation.path}/${plan.endpoint.kind === 'group' ? 'group/' : ''}`)} + EndpointId;`,
    `string login = Environment.GetEnvironmentVariable("MERCHANT_LOGIN") is { Length: > 0 } fromEnv ? fromEnv : ${cs(plan.login)};`,
    ...secretLines(plan),
    '',
    'var parameters = new List<(string Name, string Value)>',
    '{',
    ...plan.params.map((p) => `    (${cs(p.name)}, ${p.isLogin ? 'login' : cs(p.value)}),`),
    '};',
    '',
    '// RFC 3986 percent-encoding of the UTF-8 bytes (space is %20, never +).',
    'static string Pct(string s) => Uri.EscapeDataString(s);',
    'static string EnvOr(string name, string fallback) => Environment.GetEnvironmentVariable(name) is { Length: > 0 } v ? v : fallback;',
    '',
    'var body = parameters.Select(p => Pct(p.Name) + "=" + Pct(p.Value)).ToList();',
    'var request = new HttpRequestMessage(HttpMethod.Post, url);',
    'request.Headers.Accept.ParseAdd("application/vnd.pay+json");',
    '',
  ];
  if (plan.scheme === 'control') {
    lines.push(
      'string Param(string name) => parameters.Where(p => p.Name == name).Select(p => p.Value).FirstOrDefault() ?? "";',
      '',
      '// Decimal amount to minor units with exact decimal arithmetic (10.42 -> 1042), never a double.',
      'static string ToMinorUnits(string amount)',
      '{',
      '    if (amount == "") return "";',
      '    if (!Regex.IsMatch(amount, @"^[0-9]+(\\.[0-9]{1,2})?$"))',
      '        throw new ArgumentException($"amount \\"{amount}\\" is not a decimal amount such as 10.42");',
      '    return (decimal.Parse(amount, CultureInfo.InvariantCulture) * 100m).ToString("0", CultureInfo.InvariantCulture);',
      '}',
      '',
      '// control = lowercase hex SHA-1 of the terms, concatenated without separators, then the control key.',
      'string signingInput = string.Concat(new[]',
      '{',
      ...plan.formula.map(
        (t) =>
          `    ${
            t.kind === 'login'
              ? 'login'
              : t.kind === 'endpointId'
                ? 'EndpointId'
                : t.minorUnits
                  ? `ToMinorUnits(Param(${cs(t.name)}))`
                  : `Param(${cs(t.name)})`
          },`,
      ),
      '});',
      'string control = Convert.ToHexString(SHA1.HashData(Encoding.UTF8.GetBytes(signingInput + controlKey))).ToLowerInvariant();',
      ...dryRun('control'),
      'body.Add("control=" + control);',
    );
  } else {
    lines.push(
      'var oauth = new List<(string Name, string Value)>',
      '{',
      '    ("oauth_consumer_key", login),',
      `    ("oauth_nonce", EnvOr("${RUN_ENV.nonce}", ${plan.pinned ? `${cs(plan.pinned.nonce)})), // pinned` : 'Convert.ToHexString(RandomNumberGenerator.GetBytes(16)).ToLowerInvariant())), // cryptographically secure'}`,
      `    ("oauth_signature_method", ${cs(rsa ? 'RSA-SHA256' : 'HMAC-SHA1')}),`,
      `    ("oauth_timestamp", EnvOr("${RUN_ENV.timestamp}", ${plan.pinned ? `${cs(plan.pinned.timestamp)})), // pinned` : 'DateTimeOffset.UtcNow.ToUnixTimeSeconds().ToString(CultureInfo.InvariantCulture))),'}`,
      '    ("oauth_version", "1.0"),',
      '};',
      '// Body and oauth_* pairs, percent-encoded, sorted by name then value (byte order), joined with &.',
      'var pairs = parameters.Concat(oauth).Select(p => (Name: Pct(p.Name), Value: Pct(p.Value))).ToList();',
      'pairs.Sort((a, b) => string.CompareOrdinal(a.Name, b.Name) is var c && c != 0 ? c : string.CompareOrdinal(a.Value, b.Value));',
      'string parameterString = string.Join("&", pairs.Select(p => p.Name + "=" + p.Value));',
      'string baseString = "POST&" + Pct(url) + "&" + Pct(parameterString);',
      ...(rsa
        ? [
            'using var rsa = RSA.Create();',
            'rsa.ImportFromPem(privateKeyPem); // PKCS#8 (BEGIN PRIVATE KEY) or PKCS#1 (BEGIN RSA PRIVATE KEY)',
            'string signature = Convert.ToBase64String(rsa.SignData(Encoding.UTF8.GetBytes(baseString), HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1));',
          ]
        : [
            'using var hmac = new HMACSHA1(Encoding.UTF8.GetBytes(Pct(controlKey) + "&"));',
            'string signature = Convert.ToBase64String(hmac.ComputeHash(Encoding.UTF8.GetBytes(baseString)));',
          ]),
      ...dryRun('signature'),
      'var header = oauth.Append(("oauth_signature", signature)).ToDictionary(p => p.Item1, p => p.Item2);',
      'var order = new[] { "oauth_consumer_key", "oauth_nonce", "oauth_signature", "oauth_signature_method", "oauth_timestamp", "oauth_version" };',
      'request.Headers.TryAddWithoutValidation("Authorization", "OAuth " + string.Join(", ", order.Select(n => n + "=\\"" + Pct(header[n]) + "\\"")));',
    );
  }
  lines.push(
    '',
    'request.Content = new StringContent(string.Join("&", body), Encoding.ASCII, "application/x-www-form-urlencoded");',
    'using var client = new HttpClient();',
    'using var response = await client.SendAsync(request);',
    'Console.WriteLine($"HTTP {(int)response.StatusCode}");',
    'Console.WriteLine(await response.Content.ReadAsStringAsync());',
    '',
  );
  return lines.join('\n');
}

function dryRun(variable: string): string[] {
  return [
    `if (!string.IsNullOrEmpty(Environment.GetEnvironmentVariable("${RUN_ENV.dryRun}")))`,
    '{',
    `    Console.WriteLine("signature: " + ${variable});`,
    '    return;',
    '}',
  ];
}
