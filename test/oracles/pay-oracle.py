#!/usr/bin/env python3
"""Independent oracle for the pay-console signing core (python3 standard library only).

Reads a JSON array of cases on stdin and writes a JSON array of results (same order) on stdout.
It shares no code with src/core: its own percent-encoding (urllib.parse.quote with safe='~'),
its own amount arithmetic (fractions.Fraction), its own URL normalisation (urllib.parse.urlsplit),
its own parameter sorting and base string, hashlib.sha1 and hmac for the signatures.

Case kinds:
  {"kind": "encode", "value": str}
      -> {"encoded": str}
  {"kind": "amount", "text": str}
      -> {"ok": true, "minor": str} | {"ok": false, "error": "empty" | "negative" | "invalid"}
  {"kind": "normalize-url", "url": str}
      -> {"normalized": str}
  {"kind": "request", "scheme": "control" | "oauth-hmac-sha1" | "oauth-rsa-sha256",
   "baseUrl", "path", "endpoint": {"kind": "endpoint" | "group", "id"},
   "params": [{"name", "value", "keepEmpty"?}], "login", "controlKey"?,
   "formula"?: [{"kind": "login" | "endpointId" | "field", "name"?, "minorUnits"?}],
   "nonce"?, "timestamp"?}
      -> {"url", "body": [[name, value]], "bodyText", and either
          "control": {"terms": [str], "joined", "signature"} or
          "oauth": {"normalizedUrl", "parameterString", "baseString", "encodedUrl",
                    "encodedParameters", "signature" (HMAC only, else null)}}
  {"kind": "oauth-raw", "method", "url", "form": str (x-www-form-urlencoded body),
   "oauth": [[name, value]], "consumerSecret"?, "tokenSecret"?}
      -> {"normalizedUrl", "parameterString", "baseString", "signature" (when a secret is given)}
  {"kind": "sha1", "text": str} -> {"hex": str}
  {"kind": "form-plus", "pairs": [[name, value]]}
      -> {"body": str}  (urllib.parse.urlencode: quote_plus, space as `+`, as HTML forms send it)
"""

import base64
import hashlib
import hmac
import json
import re
import sys
from fractions import Fraction
from urllib.parse import quote, unquote_plus, urlencode, urlsplit

AMOUNT_RE = re.compile(r"[0-9]+(?:\.[0-9]{1,2})?", re.ASCII)


def enc(s):
    # RFC 3986 unreserved characters stay; everything else is %XX of its UTF-8 bytes, uppercase hex.
    return quote(s, safe="~", encoding="utf-8", errors="strict")


def minor_units(text):
    s = text.strip(" \t\n\r")
    if s == "":
        return None, "empty"
    if s.startswith("-"):
        return None, "negative"
    if not AMOUNT_RE.fullmatch(s):
        return None, "invalid"
    value = Fraction(s) * 100
    if value.denominator != 1:
        return None, "invalid"
    return str(value.numerator), None


def normalize_url(url):
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    port = parts.port
    default = {"http": 80, "https": 443}.get(scheme)
    netloc = host if port is None or port == default else "%s:%d" % (host, port)
    path = parts.path or "/"
    return "%s://%s%s" % (scheme, netloc, path)


def operation_url(base_url, path, endpoint):
    base = base_url.rstrip("/")
    ident = quote(endpoint["id"], safe="")
    tail = ("group/" + ident) if endpoint["kind"] == "group" else ident
    return "%s/api/%s/%s" % (base, path, tail)


def form_text(pairs):
    return "&".join(enc(n) + "=" + enc(v) for n, v in pairs)


def base_string(method, url, pairs):
    encoded = sorted((enc(n), enc(v)) for n, v in pairs)
    parameter_string = "&".join(n + "=" + v for n, v in encoded)
    normalized = normalize_url(url)
    encoded_url = enc(normalized)
    encoded_parameters = enc(parameter_string)
    return {
        "normalizedUrl": normalized,
        "parameterString": parameter_string,
        "encodedUrl": encoded_url,
        "encodedParameters": encoded_parameters,
        "baseString": method.upper() + "&" + encoded_url + "&" + encoded_parameters,
    }


def hmac_sha1_b64(key, text):
    digest = hmac.new(key.encode("utf-8"), text.encode("utf-8"), hashlib.sha1).digest()
    return base64.b64encode(digest).decode("ascii")


def request_case(case):
    url = operation_url(case["baseUrl"], case["path"], case["endpoint"])
    body = [
        (p["name"], p["value"])
        for p in case["params"]
        if p["name"] not in ("", "control") and (p["value"] != "" or p.get("keepEmpty"))
    ]
    out = {"url": url}
    if case["scheme"] == "control":
        terms = []
        for term in case.get("formula") or []:
            if term["kind"] == "login":
                terms.append(case["login"])
            elif term["kind"] == "endpointId":
                terms.append(case["endpoint"]["id"])
            else:
                found = [v for n, v in body if n == term["name"]]
                value = found[0] if found else ""
                if found and term.get("minorUnits"):
                    value, error = minor_units(value)
                    if error:
                        raise ValueError("amount term %r is not valid: %s" % (found[0], error))
                terms.append(value)
        joined = "".join(terms)
        signature = hashlib.sha1((joined + case["controlKey"]).encode("utf-8")).hexdigest()
        sent = body + [("control", signature)]
        out["control"] = {"terms": terms, "joined": joined, "signature": signature}
        out["body"] = [list(p) for p in sent]
        out["bodyText"] = form_text(sent)
        return out
    method = "HMAC-SHA1" if case["scheme"] == "oauth-hmac-sha1" else "RSA-SHA256"
    protocol = [
        ("oauth_consumer_key", case["login"]),
        ("oauth_nonce", case["nonce"]),
        ("oauth_signature_method", method),
        ("oauth_timestamp", case["timestamp"]),
        ("oauth_version", "1.0"),
    ]
    oauth = base_string("POST", url, body + protocol)
    oauth["signature"] = None
    if method == "HMAC-SHA1":
        oauth["signature"] = hmac_sha1_b64(enc(case["controlKey"]) + "&", oauth["baseString"])
    out["oauth"] = oauth
    out["body"] = [list(p) for p in body]
    out["bodyText"] = form_text(body)
    return out


def oauth_raw_case(case):
    parts = urlsplit(case["url"])
    pairs = []
    for text in (parts.query, case.get("form", "")):
        for item in text.split("&") if text else []:
            name, _, value = item.partition("=")
            pairs.append((unquote_plus(name), unquote_plus(value)))
    pairs += [(n, v) for n, v in case["oauth"] if n not in ("oauth_signature", "realm")]
    out = base_string(case["method"], case["url"], pairs)
    if "consumerSecret" in case:
        key = enc(case["consumerSecret"]) + "&" + enc(case.get("tokenSecret", ""))
        out["signingKey"] = key
        out["signature"] = hmac_sha1_b64(key, out["baseString"])
    return out


def run(case):
    kind = case["kind"]
    if kind == "encode":
        return {"encoded": enc(case["value"])}
    if kind == "amount":
        minor, error = minor_units(case["text"])
        return {"ok": True, "minor": minor} if error is None else {"ok": False, "error": error}
    if kind == "normalize-url":
        return {"normalized": normalize_url(case["url"])}
    if kind == "request":
        return request_case(case)
    if kind == "oauth-raw":
        return oauth_raw_case(case)
    if kind == "form-plus":
        return {"body": urlencode([(n, v) for n, v in case["pairs"]])}
    if kind == "sha1":
        return {"hex": hashlib.sha1(case["text"].encode("utf-8")).hexdigest()}
    raise ValueError("unknown case kind %r" % kind)


def main():
    cases = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    results = []
    for i, case in enumerate(cases):
        try:
            results.append(run(case))
        except Exception as e:  # reported per case, so one bad case does not hide the others
            results.append({"oracleError": "case %d: %s: %s" % (i, type(e).__name__, e)})
    sys.stdout.write(json.dumps(results, ensure_ascii=True))


if __name__ == "__main__":
    main()
