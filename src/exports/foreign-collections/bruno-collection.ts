/**
 * Bruno's two shapes: a folder of `.bru` files (one request each, `environments/*.bru`, a
 * `collection.bru`) and the collection export as JSON (`items`, `environments`). Both are read into
 * the requests the Postman and Insomnia import identifies; `{{variables}}` stay variables, the
 * post-response `vars` (`orderid: res.body["paynet-order-id"]`) become the step's variables set from
 * the answer, and secrets (`vars:secret`, a secret environment variable, auth secrets) are never read.
 */
import { z } from 'zod/mini';
import '../../catalog/zod-english.ts';
import { ExportError } from '../errors.ts';

/** One request of the file, in the shape both readers hand to the identification. */
export interface BrunoRequest {
  name: string;
  method: string;
  url: string;
  headers: Array<{ name: string; value: string }>;
  /** Form pairs (a `form-urlencoded` body) or raw text. */
  form: Array<{ name: string; value: string }> | null;
  body: string;
  oauth: Array<{ name: string; value: string }>;
  set?: Record<string, string>;
}

export interface BrunoRead {
  name: string;
  requests: BrunoRequest[];
  /** Collection and environment variables, in the order read (later ones win); secrets left out. */
  vars: Map<string, string>;
}

const TEXT = z.string().check(z.maxLength(100_000));
const Pair = z.looseObject({
  name: TEXT,
  value: z.optional(z.nullable(z.union([TEXT, z.number(), z.boolean()]))),
  enabled: z.optional(z.boolean()),
  secret: z.optional(z.boolean()),
});
type Pair = z.infer<typeof Pair>;

interface BrunoItem {
  type?: string | undefined;
  name?: string | undefined;
  seq?: number | undefined;
  items?: BrunoItem[] | undefined;
  request?: z.infer<typeof BrunoJsonRequest> | undefined;
}

const BrunoJsonRequest = z.looseObject({
  url: z.optional(TEXT),
  method: z.optional(TEXT),
  headers: z.optional(z.array(Pair)),
  body: z.optional(
    z.nullable(
      z.looseObject({
        mode: z.optional(TEXT),
        formUrlEncoded: z.optional(z.nullable(z.array(Pair))),
        json: z.optional(z.nullable(TEXT)),
        text: z.optional(z.nullable(TEXT)),
      }),
    ),
  ),
  auth: z.optional(z.nullable(z.looseObject({ mode: z.optional(TEXT) }))),
  vars: z.optional(z.nullable(z.looseObject({ res: z.optional(z.nullable(z.array(Pair))) }))),
});

const BrunoItemSchema: z.ZodMiniType<BrunoItem> = z.lazy(() =>
  z.looseObject({
    type: z.optional(TEXT),
    name: z.optional(TEXT),
    seq: z.optional(z.number()),
    items: z.optional(z.array(BrunoItemSchema).check(z.maxLength(10_000))),
    request: z.optional(BrunoJsonRequest),
  }),
);

const BrunoExportSchema = z.looseObject({
  name: TEXT,
  items: z.array(BrunoItemSchema).check(z.maxLength(10_000)),
  environments: z.optional(
    z.array(z.looseObject({ name: z.optional(TEXT), variables: z.optional(z.array(Pair)) })),
  ),
  root: z.optional(z.nullable(z.looseObject({}))),
});

function unreadable(message: string): ExportError {
  return new ExportError('IMPORT_UNREADABLE', message);
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const enabled = (list: readonly Pair[] | null | undefined) =>
  (list ?? []).filter((p) => p.enabled !== false).map((p) => ({ name: p.name, value: str(p.value) }));

/**
 * The answer field a post-response variable reads: `res.body["paynet-order-id"]`,
 * `res.body.orderid`, `res("paynet-order-id")`; undefined for any other expression (not run).
 */
export function answerFieldOf(expression: string): string | undefined {
  const e = expression.trim();
  const m =
    /^res\.body(?:\.([A-Za-z_$][\w$-]*)|\[\s*["']([^"'\]]+)["']\s*\])$/.exec(e) ??
    /^res\(\s*["']([^"']+)["']\s*\)$/.exec(e);
  return m ? (m[1] ?? m[2]) : undefined;
}

function setFrom(pairs: Array<{ name: string; value: string }>): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const field = answerFieldOf(p.value);
    if (field !== undefined) out[p.name] = field;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Reads a Bruno collection export (JSON), depth first in `seq` order, as Bruno lists it. */
export function readBrunoJson(json: unknown): BrunoRead {
  const parsed = BrunoExportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw unreadable(
      `This Bruno collection is damaged at ${issue.path.join('.') || 'its top level'}: ${issue.message}. Export it again.`,
    );
  }
  const c = parsed.data;
  const vars = new Map<string, string>();
  // The first environment only: which one was chosen is not in the file.
  for (const v of c.environments?.[0]?.variables ?? [])
    if (v.enabled !== false && v.secret !== true) vars.set(v.name, str(v.value));
  const requests: BrunoRequest[] = [];
  const bySeq = (items: readonly BrunoItem[]) =>
    items.slice().sort((a, b) => (a.seq ?? Infinity) - (b.seq ?? Infinity));
  const walk = (items: readonly BrunoItem[], folder: string, depth: number) => {
    if (depth > 100) throw unreadable('This Bruno collection nests folders more than 100 deep.');
    for (const it of bySeq(items)) {
      const name = `${folder}${it.name ?? 'Unnamed request'}`;
      if (it.items) walk(it.items, `${name} / `, depth + 1);
      const r = it.request;
      if (!r || it.type === 'folder') continue;
      const body = r.body ?? undefined;
      const form = body?.mode === 'formUrlEncoded' ? enabled(body.formUrlEncoded) : null;
      const set = setFrom(enabled(r.vars?.res));
      requests.push({
        name,
        method: (r.method ?? 'GET').toUpperCase(),
        url: r.url ?? '',
        headers: enabled(r.headers),
        form,
        body: form ? '' : body?.mode === 'json' ? str(body.json) : str(body?.text),
        oauth: [],
        ...(set ? { set } : {}),
      });
    }
  };
  walk(c.items, '', 0);
  return { name: c.name, requests, vars };
}

/* The Bru language: `tag {` … `}` blocks of `key: value` lines (`~key` disabled), text blocks. */

interface BruBlock {
  tag: string;
  lines: string[];
}

function bruBlocks(text: string): BruBlock[] {
  const out: BruBlock[] = [];
  let open: BruBlock | null = null;
  let close = '}';
  for (const raw of text.split(/\r?\n/)) {
    if (open) {
      if (raw.trimEnd() === close) {
        out.push(open);
        open = null;
      } else open.lines.push(raw.replace(/^ {2}/, ''));
      continue;
    }
    const m = /^([A-Za-z][\w:-]*)\s*([{[])\s*$/.exec(raw.trim());
    if (m) {
      open = { tag: m[1]!, lines: [] };
      close = m[2] === '{' ? '}' : ']';
    }
  }
  return out;
}

function pairsOf(block: BruBlock | undefined): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  for (const line of block?.lines ?? []) {
    const i = line.indexOf(':');
    if (i <= 0 || line.startsWith('~') || line.trim().startsWith('//')) continue;
    out.push({ name: line.slice(0, i).trim(), value: line.slice(i + 1).trim() });
  }
  return out;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** One `.bru` file: a request, an environment (`vars {}` only), or the collection's settings. */
function readBru(
  file: { name: string; text: string },
  read: BrunoRead,
  ordered: Array<{ request: BrunoRequest; dir: string; seq: number }>,
): void {
  const blocks = bruBlocks(file.text);
  const get = (tag: string) => blocks.find((b) => b.tag === tag);
  const method = blocks.find((b) => METHODS.includes(b.tag));
  if (!method) {
    // An environment or collection.bru: its `vars` (never `vars:secret`, a list of names only).
    for (const tag of ['vars', 'vars:pre-request'])
      for (const p of pairsOf(get(tag))) read.vars.set(p.name, p.value);
    return;
  }
  const meta = Object.fromEntries(pairsOf(get('meta')).map((p) => [p.name, p.value]));
  const settings = Object.fromEntries(pairsOf(method).map((p) => [p.name, p.value]));
  const formBlock = get('body:form-urlencoded');
  const bodyKind = settings.body ?? (formBlock ? 'formUrlEncoded' : 'none');
  const form = formBlock && /form-?url-?encoded/i.test(bodyKind) ? pairsOf(formBlock) : null;
  const textBlock = get(`body:${bodyKind}`) ?? (bodyKind === 'json' ? get('body') : undefined);
  const oauth =
    settings.auth === 'oauth1'
      ? pairsOf(get('auth:oauth1'))
          .filter((p) =>
            ['consumer_key', 'signature_method', 'nonce', 'timestamp', 'version'].includes(p.name),
          )
          .map((p) => ({ name: `oauth_${p.name}`, value: p.value }))
      : [];
  const set = setFrom(pairsOf(get('vars:post-response')));
  const request: BrunoRequest = {
    name: meta.name || file.name.replace(/^.*\//, '').replace(/\.bru$/i, ''),
    method: method.tag.toUpperCase(),
    url: settings.url ?? '',
    headers: pairsOf(get('headers')),
    form,
    body: form ? '' : (textBlock?.lines.join('\n') ?? ''),
    oauth,
    ...(set ? { set } : {}),
  };
  const seq = Number(meta.seq);
  const dir = file.name.includes('/') ? file.name.slice(0, file.name.lastIndexOf('/')) : '';
  ordered.push({ request, dir, seq: Number.isFinite(seq) ? seq : Infinity });
}

/**
 * Reads the `.bru` files of a Bruno collection (chosen together): requests in `seq` order, then
 * by name; the variables of `collection.bru` and of the environment files (the first named, in
 * name order). `bruno.json`, when given, names the collection.
 */
export function readBruFiles(files: ReadonlyArray<{ name: string; text: string }>): BrunoRead {
  const read: BrunoRead = { name: 'Bruno collection', requests: [], vars: new Map() };
  const sorted = files.slice().sort((a, b) => a.name.localeCompare(b.name));
  const config = sorted.find((f) => /(^|\/)bruno\.json$/i.test(f.name));
  if (config) {
    try {
      const name = (JSON.parse(config.text) as { name?: unknown }).name;
      if (typeof name === 'string' && name.trim() !== '') read.name = name.trim();
    } catch {
      throw unreadable(`${config.name} is not JSON: take it from the collection's folder again.`);
    }
  }
  const bru = sorted.filter((f) => /\.bru$/i.test(f.name));
  if (bru.length === 0)
    throw unreadable('No .bru file was chosen: choose the .bru files of the Bruno collection’s folder.');
  // collection.bru first, then the first environment, so a request's own values come last.
  const envs = bru.filter((f) => /(^|\/)environments\//.test(f.name) || isEnvironment(f.text));
  const first = envs[0];
  const ordered: Array<{ request: BrunoRequest; dir: string; seq: number }> = [];
  for (const f of [...bru.filter((x) => /(^|\/)collection\.bru$/i.test(x.name)), ...(first ? [first] : [])])
    readBru(f, read, ordered);
  for (const f of bru)
    if (!envs.includes(f) && !/(^|\/)(collection|folder)\.bru$/i.test(f.name)) readBru(f, read, ordered);
  // Folder by folder, each in its `seq` order (a stable sort: equal ones keep the name order).
  read.requests = ordered.sort((a, b) => a.dir.localeCompare(b.dir) || a.seq - b.seq).map((o) => o.request);
  return read;
}

function isEnvironment(text: string): boolean {
  const tags = bruBlocks(text).map((b) => b.tag);
  return tags.length > 0 && tags.every((t) => t === 'vars' || t === 'vars:secret');
}
