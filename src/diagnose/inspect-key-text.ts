import { fromBase64 } from '../core/bytes.ts';
import { derStructure, type DerStructure } from '../core/keys/der-structure.ts';
import { firstPemBlock, kindOfLabel, PEM_KIND_LABEL, type PemKind } from '../core/keys/pem.ts';

/** The tool the pasted key is meant for: one that takes PKCS#8, or one that takes PKCS#1. */
export type KeyConsumer = 'pkcs8' | 'pkcs1';

export const KEY_CONSUMER_LABEL: Record<KeyConsumer, string> = {
  pkcs8:
    'a tool that takes PKCS#8, BEGIN PRIVATE KEY (signing libraries, Web Crypto, Java’s PKCS8EncodedKeySpec)',
  pkcs1: 'a tool that takes PKCS#1, BEGIN RSA PRIVATE KEY (the gateway’s in-page request builders)',
};

export interface KeyTextProblem {
  id:
    | 'key-empty'
    | 'key-not-pem'
    | 'key-without-armor'
    | 'key-relabelled'
    | 'key-is-public'
    | 'key-encrypted'
    | 'key-container-mismatch'
    | 'key-not-rsa'
    | 'key-several-blocks';
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** True when the problem is a PKCS#1/PKCS#8/public container confusion. */
  containerConfusion: boolean;
}

export interface KeyTextInspection {
  /** What the BEGIN line says. */
  labelled?: PemKind;
  /** What the DER inside is. */
  structure: DerStructure;
  problems: KeyTextProblem[];
}

const STRUCTURE_LABEL: Record<DerStructure, string> = {
  'pkcs1-private': 'a PKCS#1 RSA private key',
  'pkcs8-private': 'a PKCS#8 private key',
  'spki-public': 'an SPKI public key',
  'pkcs1-public': 'a PKCS#1 RSA public key',
  certificate: 'an X.509 certificate',
  unknown: 'nothing this tool recognises',
};

function isPrivate(s: DerStructure | PemKind | undefined): boolean {
  return s === 'pkcs1-private' || s === 'pkcs8-private';
}

/**
 * Structural checks on a pasted private key, needing no secret beyond the text itself: a public key
 * or certificate where the private key belongs, a BEGIN line edited by hand (PKCS#8 inside a
 * `BEGIN RSA PRIVATE KEY` block or the reverse), Base64 without its BEGIN/END lines, an encrypted
 * key, and, when the consuming tool is known, the container it cannot take.
 * @see api-description.md, Authentication, Scheme O2 step 4.
 */
export function inspectKeyText(text: string, consumer?: KeyConsumer): KeyTextInspection {
  const problems: KeyTextProblem[] = [];
  if (text.trim() === '') {
    return {
      structure: 'unknown',
      problems: [
        { id: 'key-empty', severity: 'error', message: 'The key text is empty.', containerConfusion: false },
      ],
    };
  }
  const block = firstPemBlock(text);
  if (!block) {
    const bare = fromBase64(text.trim());
    const structure = bare && bare.length > 0 ? derStructure(bare) : 'unknown';
    if (structure !== 'unknown') {
      problems.push({
        id: 'key-without-armor',
        severity: 'error',
        message: `The text is ${STRUCTURE_LABEL[structure]} in bare Base64, without its -----BEGIN …----- / -----END …----- lines: PEM readers refuse it. Paste the whole PEM file.`,
        containerConfusion: true,
      });
      return { structure, problems };
    }
    problems.push({
      id: 'key-not-pem',
      severity: 'error',
      message:
        'The text is not a PEM key: expected -----BEGIN PRIVATE KEY----- (or BEGIN RSA PRIVATE KEY) … -----END … with Base64 inside.',
      containerConfusion: false,
    });
    return { structure: 'unknown', problems };
  }
  const labelled = kindOfLabel(block.label, block.headers);
  const blocks = (text.match(/-----BEGIN /g) ?? []).length;
  if (blocks > 1) {
    problems.push({
      id: 'key-several-blocks',
      severity: 'warning',
      message: `The text holds ${blocks} PEM blocks; tools read the first (${PEM_KIND_LABEL[labelled]}). Keep one key per file.`,
      containerConfusion: false,
    });
  }
  if (labelled === 'encrypted-private') {
    problems.push({
      id: 'key-encrypted',
      severity: 'warning',
      message:
        'The private key is encrypted with a passphrase: decrypt it first (`openssl pkey -in key.pem -out key-plain.pem`).',
      containerConfusion: false,
    });
    return { labelled, structure: 'unknown', problems };
  }
  const structure = derStructure(block.der);
  const labelSays: DerStructure | undefined =
    labelled === 'pkcs1-private' ||
    labelled === 'pkcs8-private' ||
    labelled === 'spki-public' ||
    labelled === 'pkcs1-public' ||
    labelled === 'certificate'
      ? labelled
      : undefined;
  if (labelSays && structure !== 'unknown' && structure !== labelSays) {
    problems.push({
      id: 'key-relabelled',
      severity: 'error',
      message: `The block says "BEGIN ${block.label}" but holds ${STRUCTURE_LABEL[structure]}: its BEGIN/END lines were edited by hand, which does not convert a key. Convert it with openssl instead.`,
      containerConfusion: true,
    });
  }
  const actual = structure !== 'unknown' ? structure : labelSays;
  if (labelled === 'unsupported') {
    problems.push({
      id: 'key-not-rsa',
      severity: 'error',
      message: `A "${block.label}" block is not an RSA key: the v4 operations need an RSA private key in PEM.`,
      containerConfusion: false,
    });
  } else if (actual && !isPrivate(actual)) {
    problems.push({
      id: 'key-is-public',
      severity: 'error',
      message: `This is ${STRUCTURE_LABEL[actual]}, not a private key: signing needs the merchant's private key (BEGIN PRIVATE KEY or BEGIN RSA PRIVATE KEY); the public key is what the gateway keeps.`,
      containerConfusion: true,
    });
  } else if (consumer && actual && isPrivate(actual) && actual !== `${consumer}-private`) {
    problems.push({
      id: 'key-container-mismatch',
      severity: 'error',
      message: `This is ${STRUCTURE_LABEL[actual]}, but it is meant for ${KEY_CONSUMER_LABEL[consumer]}: convert it with ${consumer === 'pkcs8' ? '`openssl pkcs8 -topk8 -nocrypt -in private_pkcs1.pem -out private.pem`' : '`openssl rsa -traditional -in private.pem -out private_pkcs1.pem`'}.`,
      containerConfusion: true,
    });
  }
  return { ...(labelled ? { labelled } : {}), structure, problems };
}
