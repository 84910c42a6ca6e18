import { PayError, type BuiltRequest } from '../core/index.ts';

/**
 * Why the profile cannot give a secret, when it knows: the vault is locked, or the key loaded is a
 * public key or certificate, too short, or unusable for another reason (its own message).
 */
export interface CredentialGaps {
  locked?: boolean;
  key?:
    | { kind: 'public' | 'certificate' }
    | { kind: 'short'; bits: number }
    | { kind: 'unusable'; error: string };
}

function controlKeyText(gaps: CredentialGaps): string | undefined {
  return gaps.locked ? locked('control key') : undefined;
}

function privateKeyText(gaps: CredentialGaps): string | undefined {
  if (gaps.locked) return locked('private key');
  const key = gaps.key;
  if (!key) return undefined;
  switch (key.kind) {
    case 'public':
    case 'certificate':
      return `The loaded key is a ${key.kind === 'public' ? 'public key' : 'certificate'}: it verifies, it cannot sign. Load the merchant's private key (BEGIN PRIVATE KEY or BEGIN RSA PRIVATE KEY) in the profile instead.`;
    case 'short':
      return `The loaded private key has ${key.bits} bits; the gateway refuses keys under 2048 bits. Generate a 2048-bit or longer pair on the Keys page, load its private key and register its public key.`;
    case 'unusable':
      return `The loaded private key cannot sign: ${key.error}`;
  }
}

function locked(what: string): string {
  return `The vault is locked: unlock it (Unlock in the profile bar, then your passphrase) to sign with the ${what}.`;
}

/**
 * The build's problems with each missing secret worded by its actual cause, instead of the core's
 * generic "enter it in the profile", which would send the user to the wrong fix.
 */
export function explainCredentialGaps(built: BuiltRequest, gaps: CredentialGaps): BuiltRequest {
  const texts: Partial<Record<string, string | undefined>> = {
    CONTROL_KEY_MISSING: controlKeyText(gaps),
    PRIVATE_KEY_MISSING: privateKeyText(gaps),
  };
  const explain = (p: PayError): PayError => {
    const text = texts[p.code];
    return text ? new PayError(p.code, text, { field: p.field, cause: p }) : p;
  };
  return {
    ...built,
    problems: built.problems.map(explain),
    signing: { ...built.signing, problems: built.signing.problems.map(explain) },
  };
}
