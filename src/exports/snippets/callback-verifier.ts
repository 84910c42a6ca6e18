/**
 * A merchant's check of a callback's `control`, in each export language: the program takes the
 * callback's query string (its first argument) and the control key (`PAY_CONTROL_KEY`), recomputes
 * SHA-1 (lowercase hex) of status + orderid + merchant_order + key (`merchant_order` falling back
 * to `client_orderid`, as the console's `verifyCallback` does), compares in constant time where the
 * language has it, prints `valid` or `invalid` and exits 0 or 1.
 * @see gateway-notes.md, "Callbacks"; src/core/control/verify-callback.ts.
 */
import type { SnippetLanguage } from './snippet-plan.ts';

const BASH = `#!/usr/bin/env bash
# Verifies a callback's control: ./verify-callback.sh '<query string>' (key in PAY_CONTROL_KEY).
set -euo pipefail
query="\${1:?usage: $0 '<callback query string>'}"
: "\${PAY_CONTROL_KEY:?set PAY_CONTROL_KEY to the merchant control key}"
# The value of query parameter $1, percent-decoded ('+' is a space).
param() {
  local pair name value
  local IFS='&'
  for pair in $query; do
    name="\${pair%%=*}"
    [ "$name" = "$1" ] || continue
    value="\${pair#*=}"
    value="\${value//+/ }"
    printf '%b' "\${value//%/\\\\x}"
    return
  done
}
status="$(param status)"; orderid="$(param orderid)"
merchant_order="$(param merchant_order)"; [ -n "$merchant_order" ] || merchant_order="$(param client_orderid)"
control="$(param control | tr 'A-F' 'a-f')"
expected="$(printf '%s' "$status$orderid$merchant_order$PAY_CONTROL_KEY" | openssl dgst -sha1 -r | cut -d' ' -f1)"
# Not constant-time: compare in your handler's own language where timing can be observed.
if [ -n "$control" ] && [ "$control" = "$expected" ]; then echo valid; else echo invalid; exit 1; fi
`;

const NODE = `// Verifies a callback's control: node verify-callback.mjs '<query string>' (key in PAY_CONTROL_KEY).
import { createHash, timingSafeEqual } from 'node:crypto';

const query = new URLSearchParams(process.argv[2] ?? '');
const key = process.env.PAY_CONTROL_KEY;
if (!key) throw new Error('set PAY_CONTROL_KEY to the merchant control key');
const v = (name) => query.get(name) ?? '';
const merchantOrder = v('merchant_order') || v('client_orderid');
const expected = createHash('sha1').update(v('status') + v('orderid') + merchantOrder + key, 'utf8').digest('hex');
const control = Buffer.from(v('control').toLowerCase());
const valid = control.length === expected.length && timingSafeEqual(control, Buffer.from(expected));
console.log(valid ? 'valid' : 'invalid');
process.exitCode = valid ? 0 : 1;
`;

const PYTHON = `"""Verifies a callback's control: python3 verify_callback.py '<query string>' (key in PAY_CONTROL_KEY)."""
import hashlib
import hmac
import os
import sys
from urllib.parse import parse_qs

query = parse_qs(sys.argv[1] if len(sys.argv) > 1 else "", keep_blank_values=True)
key = os.environ["PAY_CONTROL_KEY"]


def v(name):
    return query.get(name, [""])[0]


merchant_order = v("merchant_order") or v("client_orderid")
expected = hashlib.sha1((v("status") + v("orderid") + merchant_order + key).encode("utf-8")).hexdigest()
valid = hmac.compare_digest(v("control").lower(), expected)
print("valid" if valid else "invalid")
sys.exit(0 if valid else 1)
`;

const PHP = `<?php
// Verifies a callback's control: php verify-callback.php '<query string>' (key in PAY_CONTROL_KEY).
parse_str($argv[1] ?? '', $query);
$key = getenv('PAY_CONTROL_KEY');
if ($key === false || $key === '') { fwrite(STDERR, "set PAY_CONTROL_KEY to the merchant control key\\n"); exit(2); }
$v = fn (string $name): string => (string) ($query[$name] ?? '');
$merchantOrder = $v('merchant_order') !== '' ? $v('merchant_order') : $v('client_orderid');
$expected = sha1($v('status') . $v('orderid') . $merchantOrder . $key);
$valid = hash_equals($expected, strtolower($v('control')));
echo $valid ? "valid\\n" : "invalid\\n";
exit($valid ? 0 : 1);
`;

const JAVA = `// Verifies a callback's control: java VerifyCallback.java '<query string>' (key in PAY_CONTROL_KEY).
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

public class VerifyCallback {
  public static void main(String[] args) throws Exception {
    Map<String, String> q = new HashMap<>();
    for (String pair : (args.length > 0 ? args[0] : "").split("&")) {
      if (pair.isEmpty()) continue;
      int eq = pair.indexOf('=');
      String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      q.putIfAbsent(name, value);
    }
    String key = System.getenv("PAY_CONTROL_KEY");
    if (key == null || key.isEmpty()) throw new IllegalStateException("set PAY_CONTROL_KEY");
    String merchantOrder = q.getOrDefault("merchant_order", "");
    if (merchantOrder.isEmpty()) merchantOrder = q.getOrDefault("client_orderid", "");
    String input = q.getOrDefault("status", "") + q.getOrDefault("orderid", "") + merchantOrder + key;
    String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(input.getBytes(StandardCharsets.UTF_8)));
    boolean valid = MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
        q.getOrDefault("control", "").toLowerCase().getBytes(StandardCharsets.UTF_8));
    System.out.println(valid ? "valid" : "invalid");
    System.exit(valid ? 0 : 1);
  }
}
`;

const CSHARP = `// Verifies a callback's control: dotnet run -- '<query string>' (key in PAY_CONTROL_KEY).
using System.Security.Cryptography;
using System.Text;
using System.Web;

var query = HttpUtility.ParseQueryString(args.Length > 0 ? args[0] : "");
var key = Environment.GetEnvironmentVariable("PAY_CONTROL_KEY") ?? throw new Exception("set PAY_CONTROL_KEY");
string V(string name) => query[name] ?? "";
var merchantOrder = V("merchant_order") != "" ? V("merchant_order") : V("client_orderid");
var expected = Convert.ToHexString(SHA1.HashData(Encoding.UTF8.GetBytes(V("status") + V("orderid") + merchantOrder + key))).ToLowerInvariant();
var valid = CryptographicOperations.FixedTimeEquals(Encoding.UTF8.GetBytes(expected), Encoding.UTF8.GetBytes(V("control").ToLowerInvariant()));
Console.WriteLine(valid ? "valid" : "invalid");
return valid ? 0 : 1;
`;

const VERIFIERS: Record<SnippetLanguage, { fileName: string; code: string }> = {
  bash: { fileName: 'verify-callback.sh', code: BASH },
  node: { fileName: 'verify-callback.mjs', code: NODE },
  python: { fileName: 'verify_callback.py', code: PYTHON },
  php: { fileName: 'verify-callback.php', code: PHP },
  java: { fileName: 'VerifyCallback.java', code: JAVA },
  csharp: { fileName: 'Program.cs', code: CSHARP },
};

/** The callback verifier in one export language, and the file name its run line uses. */
export function callbackVerifier(language: SnippetLanguage): { fileName: string; code: string } {
  return VERIFIERS[language];
}
