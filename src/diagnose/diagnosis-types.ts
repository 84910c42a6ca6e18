import type { ResolvedTerm } from '../core/control/control-terms.ts';
import type { CryptoPort } from '../core/crypto-port.ts';
import type { EndpointRef, Scheme } from '../core/request/operation-spec.ts';
import type { CapturedRequest } from '../capture/parse-raw-http.ts';
import type { Verification } from '../core/verify/verify-signature.ts';
import type { KeyConsumer, KeyTextInspection } from './inspect-key-text.ts';
import type { MistakeId } from './mistakes.ts';
import type { AlternativeKey } from './recipe.ts';
import type { RuleReference } from './rulebook.ts';
import type { DiagnoseOperation, Finding } from './structural-checks.ts';
import type { DiffSegment } from './text-diff.ts';

/* The debugger's input and its report: what diagnose() takes and gives, shared by its steps. */

export interface DiagnoseInput {
  capture: CapturedRequest;
  /** The operation; without it, it is found in the catalog from the capture's path. */
  operation?: DiagnoseOperation;
  /** The endpoint; without it, it is read from the capture's path. */
  endpoint?: EndpointRef;
  /** Merchant login (default: the body's `login`, then the header's oauth_consumer_key). */
  login?: string;
  /** The merchant control key (control and HMAC-SHA1). */
  controlKey?: string;
  /** The merchant's RSA public key (RSA-SHA256), as imported by `importVerifyingKey`. */
  publicKey?: CryptoKey;
  /**
   * A pasted private key text: inspected for container confusion (never shown), compared with
   * the public key, and used to verify when no public key is given.
   */
  privateKeyText?: string;
  /**
   * The merchant's RSA private key, already imported (a console profile's key is not extractable):
   * without a public key, RSA-SHA256 is checked by signing again (PKCS#1 v1.5 is deterministic).
   */
  privateKey?: CryptoKey;
  /** The tool the pasted private key is meant for, when known. */
  keyConsumer?: KeyConsumer;
  /** Other keys the request may have been signed with (test vs production, another merchant). */
  alternativeKeys?: readonly AlternativeKey[];
  /**
   * The merchant's endpoint id and group id, to try the one the path does not carry, and the
   * `client_orderid` of its other orders, to try one signed in place of this one.
   */
  knownIds?: { endpointId?: string; endpointGroupId?: string; clientOrderIds?: readonly string[] };
  /** The gateway's own expected base string (OAuth) or concatenation (control), pasted. */
  expectedBaseString?: string;
  /** The time to judge oauth_timestamp against, epoch milliseconds. */
  now?: number;
  /** Accepted clock skew for oauth_timestamp (default 600 s, the local sandbox's window). */
  maxSkewSeconds?: number;
  /** False when the capture does not say http or https: both are tried and either is accepted. */
  urlSchemeKnown?: boolean;
  /** The capture is an export that says it masked card data (the console's own HAR marker). */
  maskedExport?: boolean;
  /** False when the capture shows only some headers (a log line). */
  headersComplete?: boolean;
  crypto: CryptoPort;
}

export type Confidence = 'confirmed' | 'possible';

export interface LikelyCause {
  mistakeId: MistakeId;
  title: string;
  /**
   * `confirmed`: re-signing the capture's own values the mistaken way reproduces the received
   * signature exactly (or, for mistakes that live outside the signature — a stale timestamp, the
   * wrong signature method, a key container — the capture or the key shows it beyond doubt).
   * `possible`: structural evidence, or what is left when everything else checks out.
   */
  confidence: Confidence;
  evidence: string;
  advice: string;
  rules: readonly RuleReference[];
  /** The signing input the mistaken signer used (control key masked), for confirmed variants. */
  mistakenSigningInput?: string;
  /** When two mistakes together reproduce the signature, the other one. */
  together?: MistakeId;
}

export interface FirstDifference {
  /** What ours is compared with: the mistaken signing that reproduces the signature, or the pasted expected text. */
  against: 'mistaken-signing' | 'pasted-expected';
  mistakeId?: MistakeId;
  location:
    | 'term'
    | 'key'
    | 'hex-case'
    | 'method'
    | 'url'
    | 'parameter'
    | 'parameter-order'
    | 'signing-key'
    | 'algorithm'
    | 'length';
  /** 0-based index of the term or of the pair in the sorted parameter string. */
  index?: number;
  /** The term or parameter name. */
  name?: string;
  /** Ours (what the description wants). */
  expected: string;
  /** Theirs. */
  actual: string;
  /** Character offset in the signing input (control: the concatenation without the key; OAuth: the base string). */
  offset?: number;
  description: string;
}

export interface ExpectedValues {
  control?: {
    value: string | null;
    /** The concatenation with the key masked. */
    signingInput: string;
    /** The concatenation without the key. */
    concatenation: string;
    formula: string;
    terms: ResolvedTerm[];
  };
  oauth?: {
    normalizedUrl: string;
    parameterString: string;
    baseString: string;
    /** HMAC-SHA1 only (an RSA signature can only be checked without the private key). */
    signature: string | null;
    signingKey?: string;
  };
}

export interface ExpectedDiff {
  ours: string;
  theirs: string;
  equal: boolean;
  segments: DiffSegment[];
}

export interface UrlAttempt {
  url: string;
  matches: boolean | null;
  /** The expected signature over this URL (control, HMAC-SHA1). */
  expectedSignature: string | null;
}

export interface Diagnosis {
  verdict: 'ok' | 'mismatch' | 'cannot-check';
  scheme: Scheme;
  operationPath: string;
  endpoint: EndpointRef;
  /** Whether the received signature is the correct one; null when it could not be checked. */
  signatureMatches: boolean | null;
  received: string | null;
  /** The URL the signature matched over (OAuth), else null. */
  signedUrl: string | null;
  /** The URLs checked (two when the capture does not say http or https). */
  triedUrls: UrlAttempt[];
  firstDifference: FirstDifference | null;
  /** Why there is no first difference, when there is none on a mismatch. */
  firstDifferenceNote?: string;
  likelyCauses: LikelyCause[];
  structuralFindings: Finding[];
  expected: ExpectedValues;
  expectedDiff?: ExpectedDiff;
  /** The core's verification of the URL shown (trace or base string, never a key). */
  verification: Verification;
  /** How many mistaken signings were tried. */
  variantsTried: number;
  keyInspection?: KeyTextInspection;
  /**
   * Values an export masked or removed: the capture cannot be replayed as is, whatever the verdict;
   * `signed` when one of them is signed (then the signature cannot be checked over them).
   */
  masked?: { fields: string[]; signed: boolean };
  notes: string[];
}
