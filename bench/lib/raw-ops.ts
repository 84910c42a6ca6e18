/**
 * The raw Web Crypto operation behind each signing scheme, timed in the page that is measured (same
 * Chromium, same run): SHA-1 of a control concatenation, HMAC-SHA1 and RSA-SHA256 (2048, 4096) of
 * an OAuth base string. `performance.now()` is clamped to 100 µs outside cross-origin isolation
 * (stack-notes G16), so each figure is a batch's time divided by its size.
 */
import type { Page } from 'playwright-core';

export interface RawOps {
  control: number;
  hmac: number;
  rsa2048: number;
  rsa4096: number;
}

// A string, not a function: tsx would wrap named helpers in a `__name` the page lacks.
const SCRIPT = `(async () => {
  const s = crypto.subtle;
  const utf8 = new TextEncoder();
  const concat = utf8.encode('1001' + 'sale-1700000000000' + '1042' + 'john.smith@example.com' + 'B17F59B4-A7DC-41B4-8FF9-37D3A9C3F2B8');
  const base = utf8.encode('POST&http%3A%2F%2F127.0.0.1%3A5173%2Fpaynet%2Fapi%2Fv4%2Fpayout-check%2F1001&' + 'amount%3D25.00%26client_orderid%3Dbench%26oauth_consumer_key%3Ddemo%26oauth_nonce%3Dabcdef0123456789%26oauth_signature_method%3DRSA-SHA256%26oauth_timestamp%3D1700000000%26oauth_version%3D1.0'.repeat(2));
  const batch = async (n, op) => { for (let i = 0; i < 3; i++) await op(); const t0 = performance.now(); for (let i = 0; i < n; i++) await op(); return (performance.now() - t0) / n; };
  const hmacKey = await s.importKey('raw', utf8.encode('consumer-secret&'), { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const rsa = async (bits) => (await s.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: bits, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, false, ['sign'])).privateKey;
  const k2048 = await rsa(2048);
  const k4096 = await rsa(4096);
  return {
    control: await batch(2000, () => s.digest('SHA-1', concat)),
    hmac: await batch(2000, () => s.sign('HMAC', hmacKey, base)),
    rsa2048: await batch(200, () => s.sign('RSASSA-PKCS1-v1_5', k2048, base)),
    rsa4096: await batch(50, () => s.sign('RSASSA-PKCS1-v1_5', k4096, base)),
  };
})()`;

/** Per-operation milliseconds, measured on `page` (any page of the origin under test). */
export async function measureRawOps(page: Page): Promise<RawOps> {
  return (await page.evaluate(SCRIPT)) as RawOps;
}
