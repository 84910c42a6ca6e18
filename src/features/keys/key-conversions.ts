import type { CryptoPort, KeyInspection } from '../../core/index.ts';
import { toPkcs1Pem, toPkcs1PublicPem, toPkcs8Pem, toSpkiPem } from '../../core/keys/key-containers.ts';

export type Conversion = 'pkcs8' | 'pkcs1' | 'spki' | 'pkcs1-public';

/** The Keys page's conversions, each with the PEM kind it produces. */
export const CONVERSIONS: ReadonlyArray<{
  id: Conversion;
  /** The container this conversion writes: offering it for a key already in it converts nothing. */
  produces: KeyInspection['kind'];
  private: boolean;
  button: string;
  label: string;
  filename: string;
  run: (text: string, crypto: CryptoPort) => Promise<string>;
}> = [
  {
    id: 'pkcs8',
    produces: 'pkcs8-private',
    private: true,
    button: 'Convert to PKCS#8',
    label: 'PKCS#8 private key',
    filename: 'private-pkcs8.pem',
    run: toPkcs8Pem,
  },
  {
    id: 'pkcs1',
    produces: 'pkcs1-private',
    private: true,
    button: 'Convert to PKCS#1',
    label: 'PKCS#1 private key',
    filename: 'private-pkcs1.pem',
    run: toPkcs1Pem,
  },
  {
    id: 'spki',
    produces: 'spki-public',
    private: false,
    button: 'Convert to SPKI public key',
    label: 'public key (SPKI)',
    filename: 'public.pem',
    run: toSpkiPem,
  },
  {
    id: 'pkcs1-public',
    produces: 'pkcs1-public',
    private: false,
    button: 'Convert to PKCS#1 public key',
    label: 'PKCS#1 public key',
    filename: 'public-pkcs1.pem',
    run: toPkcs1PublicPem,
  },
];

/**
 * What a key can be converted to: private containers only from a private key, and never the
 * container it is already in.
 */
export function conversionsFor(inspection: Pick<KeyInspection, 'kind' | 'isPrivate'>): typeof CONVERSIONS {
  return CONVERSIONS.filter((c) => (inspection.isPrivate || !c.private) && c.produces !== inspection.kind);
}

/** The "Problems" line of a key without problems: what it is good for, by its kind. */
export function usableFor(inspection: Pick<KeyInspection, 'isPrivate'>): string {
  return inspection.isPrivate
    ? 'None: it signs RSA-SHA256 requests.'
    : 'None, but it is a public key: it verifies RSA-SHA256 signatures (register it with the gateway); signing needs its private key.';
}
