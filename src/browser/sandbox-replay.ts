/**
 * The capsule page's client of the local sandbox for a replay: a throwaway merchant
 * (`POST /sandbox/merchants`, parsed with its contract) and the requests sent to the sandbox on this
 * console's own origin. Only the capsule page (lazy) loads this.
 */
import type { BuiltRequest } from '../core/index.ts';
import { errorText } from '../core/errors.ts';
import { importSigningKey } from '../core/keys/key-containers.ts';
import type { CryptoPort } from '../core/crypto-port.ts';
import { ThrowawayMerchantSchema } from '../contracts/sandbox-merchant.ts';

/** A fresh sandbox merchant with its private key imported; the incident's merchant is not involved. */
export async function makeReplayMerchant(crypto: CryptoPort) {
  let res: Response;
  try {
    res = await fetch('/sandbox/merchants', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ purpose: 'replay' }),
    });
  } catch (e) {
    throw new Error('Could not reach the local sandbox: is the console server (`npm start`) running?', {
      cause: e,
    });
  }
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    json = undefined;
  }
  const made = ThrowawayMerchantSchema.safeParse(json);
  if (res.status !== 201 || !made.success) {
    const said = (json as { 'error-message'?: unknown } | undefined)?.['error-message'];
    throw new Error(
      `The sandbox made no merchant for the replay (${res.status}${typeof said === 'string' ? `: ${said}` : ''}). It makes them only for a console on this machine.`,
    );
  }
  const privateKey = (await importSigningKey(made.data.privateKeyPkcs8Pem, crypto)).key;
  return { ...made.data, privateKey };
}

/** Sends one built request to the sandbox of this console's origin: its status and body text. */
export async function sendToSandbox(built: BuiltRequest): Promise<{ status: number; body: string }> {
  const headers = new Headers();
  for (const h of built.headers) if (h.name.toLowerCase() !== 'host') headers.set(h.name, h.value);
  try {
    const r = await fetch(built.url, { method: built.method, headers, body: built.bodyText });
    return { status: r.status, body: await r.text() };
  } catch (e) {
    throw new Error(`the sandbox did not answer: ${errorText(e)}`, { cause: e });
  }
}
