import type { z } from 'zod/mini';
import { buildAuthorizationHeader, encodeFormBody } from '../../core/index.ts';
import type { CapturedRequest } from '../../capture/parse-raw-http.ts';
import { isDraftError, type Place, type RequestDraft } from '../../model/index.ts';
import { draftFromCapture } from '../../model/import-draft.ts';
import { VARIABLE_NAME, variablesIn } from '../../model/variables.ts';
import { containsPrivateKey, isSecretName } from '../../catalog/index.ts';
import { ExportError } from '../errors.ts';
import {
  InsomniaExportSchema,
  PostmanCollectionSchema,
  type InsomniaResource,
  type PostmanAuth,
  type PostmanEvent,
  type PostmanItem,
  type PostmanPair,
} from './foreign-collection-schemas.ts';
import { readBruFiles, readBrunoJson, type BrunoRead } from './bruno-collection.ts';
import { FORMAT_WORDS, isBrunoExport, type ForeignFormat } from './foreign-format.ts';

export type { ForeignFormat } from './foreign-format.ts';

/** Largest file read (characters), as for the console's own collections file. */
export const MAX_FOREIGN_COLLECTION = 5_000_000;

/** Requests identified between two progress reports. */
export const PROGRESS_EVERY = 1_000;

/**
 * Deepest folder nesting of a Postman collection read (Postman's own tree is rarely ten deep): the
 * schema and the reader recurse per level, and a file nested a thousand deep overflowed the stack.
 */
export const MAX_POSTMAN_FOLDER_DEPTH = 100;

/** How deep `item` arrays nest, counted without recursion; stops past `limit`. */
function folderDepth(json: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[json, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    const items = (node as { item?: unknown } | null)?.item;
    if (!Array.isArray(items)) continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > limit) return deepest;
    for (const child of items)
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return deepest;
}

export interface ForeignCollection {
  format: ForeignFormat;
  /** The collection's (or workspace's) own name. */
  name: string;
  /**
   * Every request of this API, identified into a draft, in the file's order; `set`: the variables
   * its test script sets from the answer (`pm.collectionVariables.set("orderid",
   * pm.response.json()["paynet-order-id"])`), as a collection step declares them.
   */
  requests: Array<{ name: string; draft: RequestDraft; notes: string[]; set?: Record<string, string> }>;
  /** Requests left out, with why (another API, a URL that cannot be read). */
  skipped: Array<{ name: string; reason: string }>;
  /**
   * The file's own variables (Postman's collection variables, Insomnia's base environment), which
   * the requests keep as `{{name}}`: the defaults of the imported collection. A secret-looking one
   * (a key, a password, a token) is never read.
   */
  variables: Record<string, string>;
}

/** One request of the file, read into the shape of a capture. */
interface ForeignRequest {
  name: string;
  method: string;
  url: string;
  headers: Array<{ name: string; value: string }>;
  body: string;
  /** OAuth 1.0 parameters from the tool's own auth settings (never its secrets). */
  oauth: Array<{ name: string; value: string }>;
  /** Variables set from the answer by the request's test script. */
  set?: Record<string, string>;
}

/**
 * The version of a Postman or Insomnia file when it is not the one this import reads (a v2.0
 * collection, an Insomnia export of format 5), so that the user is told to export it again rather
 * than that the file is damaged.
 */
function otherVersionOf(format: 'postman' | 'insomnia', json: unknown): string | undefined {
  const o = json as Record<string, unknown>;
  if (format === 'insomnia') {
    const v = o.__export_format;
    return v === 4 ? undefined : `format ${typeof v === 'number' || typeof v === 'string' ? v : 'unknown'}`;
  }
  const schema = String((o.info as Record<string, unknown>).schema);
  const v = /\/v(\d+(?:\.\d+)*)\//.exec(schema)?.[1];
  return v === undefined || v.startsWith('2.1') ? undefined : `v${v}`;
}

function unreadVersion(format: 'postman' | 'insomnia', version: string): string {
  return format === 'postman'
    ? `This Postman collection is ${version}, a version this console does not read: in Postman, export it as Collection v2.1 and import that file.`
    : `This Insomnia export is ${version}, a version this console does not read: in Insomnia, export it as "Insomnia v4 (JSON)" and import that file.`;
}

/** Whether the parsed JSON looks like a Postman collection, an Insomnia or a Bruno export. */
export function foreignCollectionFormat(json: unknown): ForeignFormat | null {
  if (!json || typeof json !== 'object') return null;
  const o = json as Record<string, unknown>;
  if (o._type === 'export' && 'resources' in o) return 'insomnia';
  if (isBrunoExport(json)) return 'bruno';
  const info = o.info as Record<string, unknown> | undefined;
  if (
    info &&
    typeof info === 'object' &&
    typeof info.schema === 'string' &&
    /getpostman|postman\.com/.test(info.schema)
  )
    return 'postman';
  return null;
}

/**
 * Reads a Postman v2.1 collection or an Insomnia v4 export: each request is identified by the
 * model's capture reader (`draftFromCapture`: operation, endpoint, scheme, values, pinned OAuth
 * nonce and timestamp); requests of other APIs are listed in `skipped`. The file is read whole
 * before anything is returned, so a caller saves all of it or nothing. Secrets the tools keep in
 * their auth settings (consumer secret, private key) are never read.
 * @throws ExportError IMPORT_UNREADABLE for a file that is not JSON or neither format, or has no
 *   request of this API.
 */
export function importForeignCollection(
  text: string,
  options: {
    place?: Place;
    /** Told every {@link PROGRESS_EVERY} requests identified (the import runs off the page's thread). */
    onProgress?: (done: number, total: number) => void;
  } = {},
): ForeignCollection {
  if (text.length > MAX_FOREIGN_COLLECTION)
    throw unreadable(
      `This file is larger than ${MAX_FOREIGN_COLLECTION / 1_000_000} MB: split the collection.`,
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    // Insomnia 5 exports YAML (`type: collection.insomnia.rest/5.0`).
    const yaml = /^\s*type:\s*["']?collection\.insomnia\.rest\/(\d+)/m.exec(text.slice(0, 4096));
    if (yaml) throw unreadable(unreadVersion('insomnia', `format ${yaml[1]}`), cause);
    throw unreadable(
      'This file is not JSON: export the collection from Postman (v2.1) or Insomnia (JSON).',
      cause,
    );
  }
  const format = foreignCollectionFormat(json);
  const version = format && format !== 'bruno' ? otherVersionOf(format, json) : undefined;
  if (format && format !== 'bruno' && version) throw unreadable(unreadVersion(format, version));
  if (!format)
    throw unreadable(
      'This JSON file is neither a Postman collection (v2.1), an Insomnia export nor a Bruno collection: export it again as one of those.',
    );
  const read =
    format === 'postman'
      ? readPostman(json)
      : format === 'insomnia'
        ? readInsomnia(json)
        : fromBruno(readBrunoJson(json));
  return identifyAll(format, read, options);
}

/**
 * Reads the `.bru` files of a Bruno collection's folder (requests, `collection.bru`, an
 * environment, `bruno.json`), as {@link importForeignCollection} reads one file.
 */
export function importBruFiles(
  files: ReadonlyArray<{ name: string; text: string }>,
  options: { place?: Place; onProgress?: (done: number, total: number) => void } = {},
): ForeignCollection {
  if (files.reduce((n, f) => n + f.text.length, 0) > MAX_FOREIGN_COLLECTION)
    throw unreadable(
      `These files are larger than ${MAX_FOREIGN_COLLECTION / 1_000_000} MB together: split the collection.`,
    );
  return identifyAll('bruno', fromBruno(readBruFiles(files)), options);
}

/** Bruno's requests as the others': the URL and headers with the file's variables put in. */
function fromBruno(read: BrunoRead): { name: string; requests: ForeignRequest[]; vars: Map<string, string> } {
  const { vars } = read;
  return {
    name: read.name,
    vars,
    requests: read.requests.map((r) => ({
      name: r.name,
      method: r.method,
      url: substitute(r.url, vars),
      headers: r.headers.map((h) => ({ name: h.name, value: substitute(h.value, vars) })),
      body: r.form ? encodeFormBody(r.form) : r.body,
      oauth: r.oauth.map((p) => ({ name: p.name, value: substitute(p.value, vars) })),
      ...(r.set ? { set: r.set } : {}),
    })),
  };
}

function identifyAll(
  format: ForeignFormat,
  read: { name: string; requests: ForeignRequest[]; vars: Map<string, string> },
  options: { place?: Place; onProgress?: (done: number, total: number) => void },
): ForeignCollection {
  const result: ForeignCollection = {
    format,
    name: read.name,
    requests: [],
    skipped: [],
    variables: Object.fromEntries([...read.vars].filter(([name, value]) => keepVariable(name, value))),
  };
  const total = read.requests.length;
  for (const [i, r] of read.requests.entries()) {
    if (i % PROGRESS_EVERY === 0) options.onProgress?.(i, total);
    const outcome = identify(r, options.place);
    if ('draft' in outcome)
      result.requests.push({
        name: r.name,
        draft: outcome.draft,
        notes: outcome.notes,
        ...(r.set && Object.keys(r.set).length > 0 ? { set: r.set } : {}),
      });
    else result.skipped.push({ name: r.name, reason: outcome.reason });
  }
  if (result.requests.length === 0) {
    const what = FORMAT_WORDS[format];
    throw unreadable(
      result.skipped.length === 0
        ? `This ${what} holds no request: nothing was imported.`
        : `No request of this ${what} is an operation of this API (${result.skipped.length} skipped, e.g. "${result.skipped[0]!.name.slice(0, 80)}": ${result.skipped[0]!.reason}): nothing was imported.`,
    );
  }
  return result;
}

/** A variable worth keeping: a plain name, not a secret by name or by content. */
function keepVariable(name: string, value: string): boolean {
  return (
    VARIABLE_NAME.test(name) &&
    !isSecretName(name) &&
    !/secret|password|private|token|control[_-]?key/i.test(name) &&
    !containsPrivateKey(value)
  );
}

function unreadable(message: string, cause?: unknown): ExportError {
  return new ExportError('IMPORT_UNREADABLE', message, cause === undefined ? {} : { cause });
}

function schemaProblem(what: string, error: z.core.$ZodError): ExportError {
  const issue = error.issues[0]!;
  return unreadable(
    `This ${what} is damaged at ${issue.path.join('.') || 'its top level'}: ${issue.message}. Export it again.`,
  );
}

const VARIABLE = /\{\{\s*(?:_\.)?([A-Za-z0-9_.$-]+)\s*\}\}/g;

function substitute(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(VARIABLE, (whole, name: string) => vars.get(name) ?? whole);
}

function text(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}

/** The capture of one request, its operation found from the path; unresolved variables noted. */
function identify(
  r: ForeignRequest,
  place: Place | undefined,
): { draft: RequestDraft; notes: string[] } | { reason: string } {
  const notes: string[] = [];
  let url = r.url.trim();
  if (url === '') return { reason: 'it has no URL (give it one in the tool and export again)' };
  // The base URL may stay a variable (it belongs to the environment); only the path identifies.
  const api = url.indexOf('/api/');
  if (api > 0 && /\{\{/.test(url.slice(0, api))) url = `https://gateway.invalid${url.slice(api)}`;
  else if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) url = `https://${url}`;
  // An endpoint id left as a variable: the profile's is used.
  let endpointVariable = false;
  url = url.replace(/\/(group\/)?\{\{[^}]*\}\}\/?$/, (_m, group: string | undefined) => {
    endpointVariable = true;
    return `/${group ?? ''}0`;
  });
  const capture: CapturedRequest = {
    method: r.method,
    url,
    headers: Object.fromEntries(
      [
        ...r.headers,
        ...(r.oauth.length > 0 && !r.headers.some((h) => h.name.toLowerCase() === 'authorization')
          ? [{ name: 'Authorization', value: buildAuthorizationHeader(r.oauth) }]
          : []),
      ]
        .reverse()
        .map((h) => [h.name.toLowerCase(), h.value]),
    ),
    body: r.body,
  };
  try {
    const imported = draftFromCapture(capture, place ? { place } : {});
    let draft = imported.draft;
    if (endpointVariable) {
      const { endpoint: _variable, ...rest } = draft;
      draft = rest;
      notes.push('The endpoint id is a variable in the file: the profile’s endpoint is used.');
    }
    const kept = variablesIn(draft);
    if (kept.length > 0)
      notes.push(
        `Variables kept, resolved at each send from the environment: ${kept.map((v) => `{{${v}}}`).join(', ')}.`,
      );
    return { draft, notes: [...imported.notes, ...notes] };
  } catch (e) {
    if (!isDraftError(e)) throw e;
    return {
      reason:
        e.code === 'IMPORT_OPERATION'
          ? `${r.method} ${r.url.slice(0, 120)} is not an operation of this API`
          : `its URL "${r.url.slice(0, 120)}" cannot be read`,
    };
  }
}

/* Postman v2.1 */

function pairs(list: readonly PostmanPair[] | undefined): Array<{ name: string; value: string }> {
  return (list ?? []).filter((p) => !p.disabled).map((p) => ({ name: p.key, value: text(p.value) }));
}

/** OAuth 1.0 settings as protocol parameters: method, consumer key, nonce, timestamp, version; never a secret. */
function oauthOf(entries: Array<{ name: string; value: string }>): Array<{ name: string; value: string }> {
  const get = (k: string) => entries.find((e) => e.name === k)?.value ?? '';
  const out: Array<{ name: string; value: string }> = [];
  const add = (name: string, value: string) => {
    if (value !== '') out.push({ name, value });
  };
  add('oauth_consumer_key', get('consumerKey'));
  add('oauth_nonce', get('nonce'));
  add('oauth_signature_method', get('signatureMethod'));
  add('oauth_timestamp', get('timestamp'));
  add('oauth_version', get('version'));
  return out;
}

function readPostman(json: unknown): { name: string; requests: ForeignRequest[]; vars: Map<string, string> } {
  // The collection itself is level 1, its top folders level 2.
  if (folderDepth(json, MAX_POSTMAN_FOLDER_DEPTH + 1) > MAX_POSTMAN_FOLDER_DEPTH + 1)
    throw unreadable(
      `This Postman collection nests folders more than ${MAX_POSTMAN_FOLDER_DEPTH} deep, more than this import reads: move its requests into shallower folders and export it again.`,
    );
  const parsed = PostmanCollectionSchema.safeParse(json);
  if (!parsed.success) throw schemaProblem('Postman collection', parsed.error);
  const c = parsed.data;
  const vars = new Map(
    (c.variable ?? [])
      .filter((p) => !p.disabled && (p as { type?: unknown }).type !== 'secret')
      .map((p) => [p.key, text(p.value)]),
  );
  const requests: ForeignRequest[] = [];
  const walk = (items: readonly PostmanItem[], folder: string, inherited: PostmanAuth | null | undefined) => {
    for (const it of items) {
      const name = `${folder}${it.name ?? 'Unnamed request'}`;
      const auth = it.auth === undefined ? inherited : it.auth;
      if (it.item) walk(it.item, `${name} / `, auth);
      if (it.request === undefined) continue;
      const req = typeof it.request === 'string' ? { url: it.request } : it.request;
      const reqAuth = req.auth === undefined ? auth : req.auth;
      const headers =
        typeof req.header === 'string'
          ? req.header
              .split(/\r?\n/)
              .filter((l) => l.includes(':'))
              .map((l) => ({
                name: l.slice(0, l.indexOf(':')).trim(),
                value: l.slice(l.indexOf(':') + 1).trim(),
              }))
          : pairs(req.header);
      const body = req.body ?? undefined;
      const bodyText =
        body?.mode === 'urlencoded' ? encodeFormBody(pairs(body.urlencoded)) : (body?.raw ?? '');
      const set = variablesSetBy(it.event);
      requests.push({
        ...(set ? { set } : {}),
        name,
        method: req.method ?? 'GET',
        url: substitute(postmanUrl(req.url), vars),
        headers: headers.map((h) => ({ name: h.name, value: substitute(h.value, vars) })),
        body: bodyText,
        oauth:
          reqAuth?.type === 'oauth1'
            ? oauthOf(pairs(reqAuth.oauth1).map((p) => ({ name: p.name, value: substitute(p.value, vars) })))
            : [],
      });
    }
  };
  walk(c.item, '', c.auth);
  return { name: c.info.name, requests, vars };
}

// `pm.collectionVariables.set("orderid", pm.response.json()["paynet-order-id"])`, and the same with
// `pm.environment` / `pm.variables` / `pm.globals`, `.field` or a `jsonData` / `json` variable.
const SET_FROM_ANSWER =
  /pm\.(?:collectionVariables|environment|variables|globals)\.set\(\s*["']([A-Za-z0-9_.$-]+)["']\s*,\s*(?:pm\.response\.json\(\)|[A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*)|\[\s*["']([^"'\]]+)["']\s*\])\s*\)/g;

/** The variables a test script sets from the JSON answer: no script runs, the common line is read. */
function variablesSetBy(events: readonly PostmanEvent[] | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const e of events ?? []) {
    if (e.listen !== 'test') continue;
    const exec = e.script?.exec;
    const code = Array.isArray(exec) ? exec.join('\n') : (exec ?? '');
    for (const m of code.matchAll(SET_FROM_ANSWER)) out[m[1]!] = m[2] ?? m[3]!;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function postmanUrl(url: unknown): string {
  if (typeof url === 'string') return url;
  if (!url || typeof url !== 'object') return '';
  const u = url as {
    raw?: string;
    protocol?: string;
    host?: string | string[];
    port?: string;
    path?: unknown;
  };
  if (u.raw) return u.raw;
  const host = Array.isArray(u.host) ? u.host.join('.') : (u.host ?? '');
  const path = Array.isArray(u.path) ? u.path.filter((p) => typeof p === 'string').join('/') : text(u.path);
  return `${u.protocol ? `${u.protocol}://` : ''}${host}${u.port ? `:${u.port}` : ''}/${path}`;
}

/* Insomnia v4 */

function readInsomnia(json: unknown): {
  name: string;
  requests: ForeignRequest[];
  vars: Map<string, string>;
} {
  const parsed = InsomniaExportSchema.safeParse(json);
  if (!parsed.success) throw schemaProblem('Insomnia export', parsed.error);
  const resources = parsed.data.resources;
  const byId = new Map(resources.map((r) => [r._id, r]));
  const workspace = resources.find((r) => r._type === 'workspace');
  // The base environment only: which sub-environment was active is not in the file.
  const vars = new Map<string, string>();
  for (const env of resources.filter((r) => r._type === 'environment'))
    if (byId.get(env.parentId ?? '')?._type !== 'environment')
      for (const [k, v] of Object.entries(env.data ?? {})) if (typeof v !== 'object') vars.set(k, text(v));
  const folderOf = (r: InsomniaResource): string => {
    const names: string[] = [];
    let p = byId.get(r.parentId ?? '');
    for (let depth = 0; p && p._type === 'request_group' && depth < 50; depth++) {
      names.unshift(p.name ?? 'Folder');
      p = byId.get(p.parentId ?? '');
    }
    return names.map((n) => `${n} / `).join('');
  };
  const requests = resources
    .filter((r) => r._type === 'request')
    .map((r): ForeignRequest => {
      const params = (r.body?.params ?? [])
        .filter((p) => !p.disabled)
        .map((p) => ({ name: p.name, value: text(p.value) }));
      const auth = r.authentication ?? {};
      const setting = (k: string) => substitute(text(auth[k]), vars);
      return {
        name: `${folderOf(r)}${r.name ?? 'Unnamed request'}`,
        method: r.method ?? 'GET',
        url: substitute(r.url ?? '', vars),
        headers: (r.headers ?? [])
          .filter((h) => !h.disabled)
          .map((h) => ({ name: h.name, value: substitute(text(h.value), vars) })),
        body: params.length > 0 ? encodeFormBody(params) : (r.body?.text ?? ''),
        oauth:
          auth.type === 'oauth1' && auth.disabled !== true
            ? oauthOf(
                ['consumerKey', 'nonce', 'signatureMethod', 'timestamp', 'version'].map((k) => ({
                  name: k,
                  value: setting(k),
                })),
              )
            : [],
      };
    });
  return { name: workspace?.name ?? 'Insomnia', requests, vars };
}
