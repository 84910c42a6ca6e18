import type { CryptoPort } from '../crypto-port.ts';
import { PayError } from '../errors.ts';
import { parseKey } from './key-containers.ts';
import { firstPemBlock, kindOfLabel, toPem } from './pem.ts';

// Apart from key-containers.ts, so that the first page (which reads keys) does not carry it.
const forgeKeys = () => import('./forge-keys.ts');

/**
 * Decrypts an encrypted private key (PKCS#8 `ENCRYPTED PRIVATE KEY`, or PKCS#1 with
 * `Proc-Type: 4,ENCRYPTED`) with its passphrase and returns it as an unencrypted PKCS#8 PEM,
 * checked like any pasted key. node-forge does the decryption and loads only when it is asked for.
 * @throws PayError KEY_NOT_ENCRYPTED, KEY_PASSPHRASE_MISSING, KEY_PASSPHRASE_WRONG,
 *   KEY_ENCRYPTION_UNSUPPORTED, KEY_NOT_RSA, or what {@link parseKey} throws for the result.
 */
export async function decryptPrivateKey(
  text: string,
  passphrase: string,
  crypto: CryptoPort,
): Promise<string> {
  const block = firstPemBlock(text);
  if (!block || kindOfLabel(block.label, block.headers) !== 'encrypted-private') {
    throw new PayError(
      'KEY_NOT_ENCRYPTED',
      'This key is not encrypted: use it as it is, no passphrase needed.',
      {
        field: 'key',
      },
    );
  }
  if (passphrase === '') {
    throw new PayError('KEY_PASSPHRASE_MISSING', 'Enter the passphrase the key was encrypted with.', {
      field: 'key',
    });
  }
  // The first block alone, its RFC 1421 headers (Proc-Type, DEK-Info) kept for the traditional form.
  const wrapped = toPem(block.label, block.der);
  const pem = block.headers ? wrapped.replace('-----\n', `-----\n${block.headers.trim()}\n\n`) : wrapped;
  const result = (await forgeKeys()).decryptPrivateKeyPem(pem, passphrase);
  if ('failure' in result) {
    if (result.failure === 'wrong-passphrase')
      throw new PayError(
        'KEY_PASSPHRASE_WRONG',
        'Wrong passphrase: the key could not be decrypted with it. Check the passphrase (it is case-sensitive) and try again.',
        { field: 'key' },
      );
    if (result.failure === 'not-rsa')
      throw new PayError(
        'KEY_NOT_RSA',
        'This encrypted key is not an RSA key: the gateway needs RSA, at least 2048 bits.',
        {
          field: 'key',
        },
      );
    throw new PayError(
      'KEY_ENCRYPTION_UNSUPPORTED',
      'This key is encrypted with a scheme the browser cannot read: decrypt it with `openssl pkey -in key.pem -out key-plain.pem`, or re-encrypt it with `openssl pkcs8 -topk8 -v2 aes-256-cbc`.',
      { field: 'key' },
    );
  }
  const out = toPem('PRIVATE KEY', result.pkcs8);
  // Checked like any pasted key (RSA, consistent, sizes), so a bad result fails here, not at signing.
  await parseKey(out, crypto);
  return out;
}
