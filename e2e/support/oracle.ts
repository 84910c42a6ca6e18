/**
 * Independent signing for the end-to-end tests, written here with Node's crypto: the test computes
 * what the page should show and compares. Nothing here comes from the console's source.
 */
import { createHash, createHmac, createSign } from 'node:crypto';

export function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function minorUnits(amount: string): string {
  const [whole, frac = ''] = amount.split('.');
  return String(Number(whole) * 100 + Number(frac.padEnd(2, '0')));
}

export function controlSha1(parts: string[], controlKey: string): string {
  return createHash('sha1')
    .update(parts.join('') + controlKey, 'utf8')
    .digest('hex');
}

export function oauthBaseString(
  url: string,
  body: Array<[string, string]>,
  oauth: Record<string, string>,
): string {
  const pairs = [...body, ...Object.entries(oauth)].map(([k, v]) => [rfc3986(k), rfc3986(v)] as const);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const params = pairs.map(([k, v]) => `${k}=${v}`).join('&');
  return ['POST', rfc3986(url), rfc3986(params)].join('&');
}

export function hmacSha1(base: string, controlKey: string): string {
  return createHmac('sha1', `${rfc3986(controlKey)}&`)
    .update(base, 'utf8')
    .digest('base64');
}

export function rsaSha256(base: string, privateKeyPem: string): string {
  return createSign('RSA-SHA256').update(base, 'utf8').sign(privateKeyPem, 'base64');
}
