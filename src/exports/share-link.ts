import { z } from 'zod';
import { fromBase64, toBase64, type EndpointRef } from '../core/index.ts';
import type { FormPreset } from '../shared/contracts/contracts.ts';
import { ExportError } from './errors.ts';
import { containsCardNumber, findOperation, isCvvName, isPanName, isSecretName } from '../catalog/index.ts';

/** The fragment key: `#share=…` never reaches a server, so the values stay out of access logs. */
export const SHARE_FRAGMENT_KEY = 'share';
/** Longest link accepted on decode (characters of the token). */
export const MAX_SHARE_TOKEN = 32_768;

/** The compact payload, version 1: short keys, pairs in form order. */
const payloadSchema = z.object({
  v: z.literal(1),
  o: z.string().min(1).max(200),
  p: z.array(z.tuple([z.string().min(1).max(200), z.string().max(65_536)])).max(500),
  x: z
    .array(z.tuple([z.string().min(1).max(200), z.string().max(65_536)]))
    .max(500)
    .optional(),
  e: z
    .string()
    .regex(/^(?:g)?\d{1,19}$/)
    .optional(),
});
type Payload = z.infer<typeof payloadSchema>;

export interface SharePreparation {
  preset: FormPreset;
  /** Names left out and why, for the UI to say so. */
  dropped: Array<{ name: string; reason: 'cvv' | 'card-number' | 'secret' | 'signature' }>;
}

function dropReason(
  name: string,
  value: string,
  operationPath: string,
): SharePreparation['dropped'][number]['reason'] | undefined {
  if (name === 'control' || name === 'oauth_signature') return 'signature';
  if (isCvvName(name)) return 'cvv';
  if (isSecretName(name)) return 'secret';
  if (isPanName(name, operationPath) || containsCardNumber(value)) return 'card-number';
  return undefined;
}

/**
 * The preset as it may be shared: values only. The control key and private key are never in a
 * preset; the CVV, card numbers (by field and by content), `control` and anything secret-looking
 * are taken out here.
 */
export function prepareSharePreset(preset: FormPreset): SharePreparation {
  const dropped: SharePreparation['dropped'] = [];
  const keep = (name: string, value: string) => {
    const reason = dropReason(name, value, preset.operationPath);
    if (reason) dropped.push({ name, reason });
    return reason === undefined;
  };
  const values = Object.fromEntries(Object.entries(preset.values).filter(([n, v]) => keep(n, v)));
  const extras = (preset.extras ?? []).filter((p) => keep(p.name, p.value));
  return {
    preset: {
      operationPath: preset.operationPath,
      values,
      ...(extras.length > 0 ? { extras } : {}),
      ...(preset.endpoint ? { endpoint: preset.endpoint } : {}),
    },
    dropped,
  };
}

function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return fromBase64(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
}

/**
 * A share link fragment for a request: `#share=<base64url of the UTF-8 JSON>`. Only values travel:
 * see {@link prepareSharePreset} for what is left out.
 */
export function encodeShareLink(preset: FormPreset): string {
  const { preset: clean } = prepareSharePreset(preset);
  const payload: Payload = {
    v: 1,
    o: clean.operationPath,
    p: Object.entries(clean.values),
    ...(clean.extras ? { x: clean.extras.map((p): [string, string] => [p.name, p.value]) } : {}),
    ...(clean.endpoint ? { e: `${clean.endpoint.kind === 'group' ? 'g' : ''}${clean.endpoint.id}` } : {}),
  };
  return `#${SHARE_FRAGMENT_KEY}=${toBase64Url(new TextEncoder().encode(JSON.stringify(payload)))}`;
}

const damaged = (why: string) =>
  new ExportError(
    'SHARE_LINK_DAMAGED',
    `This share link is damaged (${why}): ask for the link again and copy it whole.`,
  );

/** The token of a link: from a full URL, a `#share=…` fragment, `share=…`, or the bare token. */
function tokenOf(input: string): string {
  const text = input.trim();
  const hashAt = text.indexOf('#');
  const fragment = hashAt === -1 ? text : text.slice(hashAt + 1);
  const m = new RegExp(`(?:^|[#&?])${SHARE_FRAGMENT_KEY}=([^&#]*)`).exec(fragment);
  if (m) return m[1]!;
  if (hashAt !== -1 || fragment.includes('=')) throw damaged(`no "${SHARE_FRAGMENT_KEY}=" part after #`);
  return fragment;
}

/**
 * Reads a share link back into a form preset, checked with zod; what must not be shared is taken
 * out again, whoever made the link.
 * @throws ExportError SHARE_LINK_DAMAGED for a cut or altered link, SHARE_LINK_VERSION for a link of a
 *   newer console, SHARE_LINK_OPERATION for an operation this console does not know.
 */
export function decodeShareLink(link: string): FormPreset {
  const token = tokenOf(link);
  if (token === '') throw damaged('it is empty');
  if (token.length > MAX_SHARE_TOKEN) throw damaged(`longer than ${MAX_SHARE_TOKEN} characters`);
  const bytes = fromBase64Url(token);
  if (!bytes) throw damaged('it is not base64url text');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (cause) {
    throw new ExportError(
      'SHARE_LINK_DAMAGED',
      'This share link is damaged (its content is not readable): ask for the link again and copy it whole.',
      { cause },
    );
  }
  if (json && typeof json === 'object' && 'v' in json && (json as { v: unknown }).v !== 1) {
    throw new ExportError(
      'SHARE_LINK_VERSION',
      `This share link was made by a newer version of the console (format ${String((json as { v: unknown }).v)}): update the console to open it.`,
    );
  }
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw damaged(`${issue.path.join('.') || 'content'}: ${issue.message}`);
  }
  const p = parsed.data;
  if (!findOperation(p.o)) {
    throw new ExportError(
      'SHARE_LINK_OPERATION',
      `This share link is for the operation "${p.o.slice(0, 80)}", which this console does not know: check that both consoles are the same version.`,
    );
  }
  const endpoint: EndpointRef | undefined = p.e
    ? p.e.startsWith('g')
      ? { kind: 'group', id: p.e.slice(1) }
      : { kind: 'endpoint', id: p.e }
    : undefined;
  const seen = new Set<string>();
  const values: Record<string, string> = Object.fromEntries(
    p.p.filter(([name]) => !seen.has(name) && seen.add(name)),
  );
  return prepareSharePreset({
    operationPath: p.o,
    values,
    ...(p.x ? { extras: p.x.map(([name, value]) => ({ name, value })) } : {}),
    ...(endpoint ? { endpoint } : {}),
  }).preset;
}
