import { isPayError, webCryptoPort, type KeyInspection, type SigningKey } from '../../core/index.ts';
import { dropKeys } from '../../browser/key-drop.ts';

export interface KeyImport {
  inspection: KeyInspection;
  signingKey?: SigningKey;
  error?: string;
}

const crypto = webCryptoPort();

async function importPem(pem: string): Promise<KeyImport> {
  // Key parsing loads with the first key, not with the first page (most forms sign with a control key).
  const { importSigningKey, inspectKey } = await import('../../core/keys/key-containers.ts');
  const inspection = await inspectKey(pem, crypto);
  if (inspection.problem) return { inspection, error: inspection.problem.message };
  if (!inspection.isPrivate) {
    return {
      inspection,
      error: `This ${shortKeyLabel(inspection.label)} can verify, not sign: signing needs the merchant's private key (BEGIN PRIVATE KEY or BEGIN RSA PRIVATE KEY).`,
    };
  }
  try {
    return { inspection, signingKey: await importSigningKey(pem, crypto) };
  } catch (e) {
    return {
      inspection,
      error: isPayError(e) ? e.message : `The key could not be imported for signing: ${String(e)}`,
    };
  }
}

/** Imports each PEM once: typing elsewhere, switching back to a profile or re-rendering reuses the key. */
export function createKeyImporter(limit = 8) {
  const cache = new Map<string, Promise<KeyImport>>();
  return {
    get(pem: string): Promise<KeyImport> {
      const hit = cache.get(pem);
      if (hit) return hit;
      const p = importPem(pem);
      cache.set(pem, p);
      while (cache.size > limit) cache.delete(cache.keys().next().value!);
      return p;
    },
    /** Drops every key, here and wherever a copy went (the signing worker). */
    clear(): void {
      cache.clear();
      dropKeys();
    },
  };
}

/** The page's one importer: the prefetch (before React mounts) and the provider share its cache. */
export const keyImporter = createKeyImporter();

export function shortKeyLabel(label: string): string {
  return label.replace(/\s*\(BEGIN [^)]*\)$/, '');
}

/** "PKCS#1 RSA private key, 2048 bits, fingerprint 3f2a…" */
export function describeKey(inspection: KeyInspection): string {
  const parts = [shortKeyLabel(inspection.label)];
  if (inspection.bits !== undefined) parts.push(`${inspection.bits} bits`);
  if (inspection.fingerprint) parts.push(`fingerprint ${inspection.fingerprint}`);
  return parts.join(', ');
}
