import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isPayError, type CryptoPort, type EndpointRef } from '../src/core/index.ts';
import { generateKeyPair, importVerifyingKey } from '../src/core/keys/key-containers.ts';
import type { AddedMerchantRow, SandboxStore } from './store.ts';
import { errorText } from '../src/core/errors.ts';

/** A merchant of the sandbox, as `SANDBOX_MERCHANTS` lists it. */
export const merchantConfigSchema = z.object({
  login: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\x21-\x7e]+$/, 'a login is printable ASCII without spaces'),
  controlKey: z.string().min(8, 'a control key has at least 8 characters').max(256),
  endpointIds: z
    .array(z.union([z.string(), z.number().int().nonnegative()]).transform(String))
    .min(1, 'give at least one endpoint id')
    .refine((ids) => ids.every((id) => /^\d{1,19}$/.test(id)), 'endpoint ids are whole numbers'),
  endpointGroupIds: z
    .array(z.union([z.string(), z.number().int().nonnegative()]).transform(String))
    .default([])
    .refine((ids) => ids.every((id) => /^\d{1,19}$/.test(id)), 'endpoint group ids are whole numbers'),
  publicKeyPem: z.string().min(1),
  /** Optional: lets `GET /demo-merchant` hand the console a ready signing key for this merchant. */
  privateKeyPem: z.string().optional(),
});
export type MerchantConfig = z.input<typeof merchantConfigSchema>;
export type ParsedMerchantConfig = z.output<typeof merchantConfigSchema>;

export interface Merchant {
  login: string;
  controlKey: string;
  endpointIds: readonly string[];
  endpointGroupIds: readonly string[];
  /** The public key the sandbox verifies RSA-SHA256 signatures with (SPKI PEM as given). */
  publicKeyPem: string;
  verifyKey: CryptoKey;
  keyFingerprint: string;
  keyBits: number;
  /** The matching private key when the sandbox knows it (the demo merchant), for the console's default profile. */
  privateKeyPkcs8Pem: string | null;
  /** Fingerprint of the key pair `privateKeyPkcs8Pem` belongs to. */
  privateKeyFingerprint: string | null;
  demo: boolean;
}

export const DEMO_LOGIN = 'demo-merchant';
export const DEMO_ENDPOINT_ID = '1111';
export const DEMO_GROUP_ID = '2222';
export const DEMO_FILE_NAME = 'sandbox-demo-merchant.json';

const demoFileSchema = z.object({
  version: z.literal(1),
  login: z.string().min(1),
  controlKey: z.string().min(8),
  endpointIds: z.array(z.string().regex(/^\d+$/)).min(1),
  endpointGroupIds: z.array(z.string().regex(/^\d+$/)),
  privateKeyPkcs8Pem: z.string().min(1),
  publicKeyPem: z.string().min(1),
});

/** The merchants the sandbox knows, looked up by login or by the endpoint in a request path. */
export class MerchantRegistry {
  private readonly list: Merchant[];
  /**
   * Each merchant as configured (file, option or demo file) or created (a trainee's, with the key
   * they joined with), before any key registered at run time.
   */
  private readonly configured: Map<string, Merchant>;

  constructor(list: Merchant[]) {
    this.list = list;
    this.configured = new Map(list.map((m) => [m.login, m]));
  }

  all(): readonly Merchant[] {
    return this.list;
  }

  first(): Merchant {
    return this.list[0]!;
  }

  byLogin(login: string): Merchant | undefined {
    return this.list.find((m) => m.login === login);
  }

  byEndpoint(ref: EndpointRef): Merchant | undefined {
    return this.list.find((m) =>
      (ref.kind === 'group' ? m.endpointGroupIds : m.endpointIds).includes(ref.id),
    );
  }

  /** The endpoint id a request is booked on: the path's own, or for a group the merchant's first endpoint. */
  endPointIdFor(merchant: Merchant, ref: EndpointRef): string {
    return ref.kind === 'endpoint' ? ref.id : merchant.endpointIds[0]!;
  }

  /** Adds a merchant created at run time; its login and ids must be new. */
  add(merchant: Merchant): void {
    if (this.byLogin(merchant.login)) throw new Error(`merchant ${merchant.login} exists`);
    this.list.push(merchant);
    this.configured.set(merchant.login, merchant);
  }

  replace(
    login: string,
    update: Pick<Merchant, 'publicKeyPem' | 'verifyKey' | 'keyFingerprint' | 'keyBits'>,
  ): Merchant {
    const i = this.list.findIndex((m) => m.login === login);
    if (i === -1) throw new Error(`no merchant ${login}`);
    const next = { ...this.list[i]!, ...update };
    this.list[i] = next;
    return next;
  }

  /** The merchant as configured or created (a trainee's: with the key they joined with). */
  configuredOf(login: string): Merchant | undefined {
    return this.configured.get(login);
  }

  /** Puts the merchant's configured public key back (the demo merchant's shipped key). */
  restoreConfigured(login: string): Merchant {
    const shipped = this.configured.get(login);
    if (!shipped) throw new Error(`no merchant ${login}`);
    return this.replace(login, {
      publicKeyPem: shipped.publicKeyPem,
      verifyKey: shipped.verifyKey,
      keyFingerprint: shipped.keyFingerprint,
      keyBits: shipped.keyBits,
    });
  }
}

function describe(e: unknown): string {
  return isPayError(e) ? e.message : errorText(e);
}

async function toMerchant(
  cfg: ParsedMerchantConfig,
  crypto: CryptoPort,
  extra: { privateKeyPkcs8Pem: string | null; demo: boolean },
): Promise<Merchant> {
  let imported: Awaited<ReturnType<typeof importVerifyingKey>>;
  try {
    imported = await importVerifyingKey(cfg.publicKeyPem, crypto);
  } catch (e) {
    throw new Error(`Merchant "${cfg.login}": its publicKeyPem cannot be used: ${describe(e)}`, { cause: e });
  }
  let privateFingerprint: string | null = null;
  if (extra.privateKeyPkcs8Pem) {
    try {
      privateFingerprint = (await importVerifyingKey(extra.privateKeyPkcs8Pem, crypto)).fingerprint;
    } catch (e) {
      throw new Error(`Merchant "${cfg.login}": its private key cannot be read: ${describe(e)}`, {
        cause: e,
      });
    }
  }
  return {
    login: cfg.login,
    controlKey: cfg.controlKey,
    endpointIds: cfg.endpointIds,
    endpointGroupIds: cfg.endpointGroupIds,
    publicKeyPem: cfg.publicKeyPem,
    verifyKey: imported.key,
    keyFingerprint: imported.fingerprint,
    keyBits: imported.bits,
    privateKeyPkcs8Pem: extra.privateKeyPkcs8Pem,
    privateKeyFingerprint: privateFingerprint,
    demo: extra.demo,
  };
}

function readMerchantsFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(
      `SANDBOX_MERCHANTS names ${file}, which cannot be read (${describe(e)}): check the path.`,
      { cause: e },
    );
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`SANDBOX_MERCHANTS file ${file} is not valid JSON (${describe(e)}).`, { cause: e });
  }
}

/** Reads the demo merchant from the data directory, creating it (and its key pair) on first start. */
async function loadOrCreateDemo(
  dataDir: string,
  crypto: CryptoPort,
): Promise<z.output<typeof demoFileSchema>> {
  const file = path.join(dataDir, DEMO_FILE_NAME);
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`The demo merchant file ${file} cannot be read (${describe(e)}).`, { cause: e });
    }
  }
  if (text !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new Error(
        `The demo merchant file ${file} is not valid JSON: delete it and a new demo merchant is created.`,
        {
          cause: e,
        },
      );
    }
    const r = demoFileSchema.safeParse(parsed);
    if (!r.success) {
      throw new Error(
        `The demo merchant file ${file} is damaged (${r.error.issues[0]?.message}): delete it to create a new one.`,
      );
    }
    try {
      chmodSync(file, 0o600);
    } catch {
      // Best effort: a read-only mount keeps its own permissions.
    }
    return r.data;
  }
  const pair = await generateKeyPair(2048, crypto);
  const demo = {
    version: 1 as const,
    login: DEMO_LOGIN,
    controlKey: randomUUID().toUpperCase(),
    endpointIds: [DEMO_ENDPOINT_ID],
    endpointGroupIds: [DEMO_GROUP_ID],
    privateKeyPkcs8Pem: pair.pkcs8Pem,
    publicKeyPem: pair.spkiPem,
  };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, JSON.stringify(demo, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  } catch (e) {
    // Another process created it first: use theirs.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateDemo(dataDir, crypto);
    throw new Error(`Cannot write the demo merchant file ${file} (${describe(e)}): check DATA_DIR.`, {
      cause: e,
    });
  }
  return demo;
}

/**
 * The sandbox's merchants: the `merchants` option, else the `SANDBOX_MERCHANTS` file, else the demo
 * merchant; then any public key registered at run time (kept in the database) replaces the configured one.
 */
export async function loadMerchants(
  opts: { merchants: MerchantConfig[] | undefined; merchantsFile: string | undefined; dataDir: string },
  crypto: CryptoPort,
  store: SandboxStore,
): Promise<MerchantRegistry> {
  const list: Merchant[] = [];
  const source = opts.merchants ?? (opts.merchantsFile ? readMerchantsFile(opts.merchantsFile) : undefined);
  if (source !== undefined) {
    const where = opts.merchants ? 'the merchants option' : `SANDBOX_MERCHANTS file ${opts.merchantsFile}`;
    const r = z.array(merchantConfigSchema).min(1, 'list at least one merchant').safeParse(source);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new Error(`${where}: ${issue.path.join('.') || 'the list'}: ${issue.message}.`);
    }
    const seenLogins = new Set<string>();
    const seenEndpoints = new Set<string>();
    for (const cfg of r.data) {
      if (seenLogins.has(cfg.login)) throw new Error(`${where}: the login "${cfg.login}" appears twice.`);
      seenLogins.add(cfg.login);
      for (const id of [
        ...cfg.endpointIds.map((i) => `endpoint ${i}`),
        ...cfg.endpointGroupIds.map((i) => `group ${i}`),
      ]) {
        if (seenEndpoints.has(id)) throw new Error(`${where}: ${id} belongs to two merchants.`);
        seenEndpoints.add(id);
      }
      list.push(
        await toMerchant(cfg, crypto, { privateKeyPkcs8Pem: cfg.privateKeyPem ?? null, demo: false }),
      );
    }
  } else {
    const demo = await loadOrCreateDemo(opts.dataDir, crypto);
    list.push(
      await toMerchant({ ...demo }, crypto, { privateKeyPkcs8Pem: demo.privateKeyPkcs8Pem, demo: true }),
    );
  }
  for (const row of store.addedMerchants.all()) {
    if (list.some((m) => m.login === row.login)) continue;
    try {
      list.push(await addedMerchant(row, crypto));
    } catch {
      // A stored key that no longer imports leaves that merchant out; the others load.
    }
  }
  const registry = new MerchantRegistry(list);
  for (const row of store.merchantKeys.all()) {
    if (!registry.byLogin(row.login)) continue;
    try {
      const k = await importVerifyingKey(row.public_key_pem, crypto);
      registry.replace(row.login, {
        publicKeyPem: row.public_key_pem,
        verifyKey: k.key,
        keyFingerprint: k.fingerprint,
        keyBits: k.bits,
      });
    } catch {
      // A stored key that no longer imports is ignored; the configured one stays.
    }
  }
  return registry;
}

/** First endpoint id handed to merchants created at run time; the group id is this plus {@link ADDED_GROUP_OFFSET}. */
export const FIRST_ADDED_ENDPOINT_ID = 100_001;
export const ADDED_GROUP_OFFSET = 100_000;

async function addedMerchant(row: AddedMerchantRow, crypto: CryptoPort): Promise<Merchant> {
  return toMerchant(
    {
      login: row.login,
      controlKey: row.control_key,
      endpointIds: [row.endpoint_id],
      endpointGroupIds: [row.endpoint_group_id],
      publicKeyPem: row.public_key_pem,
    },
    crypto,
    { privateKeyPkcs8Pem: null, demo: false },
  );
}

/**
 * Creates a merchant at run time (a classroom trainee's): a fresh login from the prefix, a random
 * control key, the next free endpoint and group ids, and the given public key (the private key
 * stays with whoever generated it). Kept in the database, so it survives a restart.
 */
export async function createMerchant(
  store: SandboxStore,
  registry: MerchantRegistry,
  crypto: CryptoPort,
  input: { loginPrefix: string; publicKeyPem: string; now: number },
): Promise<Merchant> {
  const imported = await importVerifyingKey(input.publicKeyPem, crypto);
  const taken = (id: string) =>
    registry.all().some((m) => m.endpointIds.includes(id) || m.endpointGroupIds.includes(id));
  let next = Math.max(FIRST_ADDED_ENDPOINT_ID, (store.addedMerchants.lastEndpointId() ?? 0) + 1);
  while (taken(String(next)) || taken(String(next + ADDED_GROUP_OFFSET))) next += 1;
  const row: AddedMerchantRow = {
    login: `${input.loginPrefix}-${next}`,
    control_key: randomUUID().toUpperCase(),
    endpoint_id: String(next),
    endpoint_group_id: String(next + ADDED_GROUP_OFFSET),
    public_key_pem: input.publicKeyPem,
    created_at: input.now,
  };
  store.addedMerchants.insert(row);
  const merchant: Merchant = {
    login: row.login,
    controlKey: row.control_key,
    endpointIds: [row.endpoint_id],
    endpointGroupIds: [row.endpoint_group_id],
    publicKeyPem: row.public_key_pem,
    verifyKey: imported.key,
    keyFingerprint: imported.fingerprint,
    keyBits: imported.bits,
    privateKeyPkcs8Pem: null,
    privateKeyFingerprint: null,
    demo: false,
  };
  registry.add(merchant);
  return merchant;
}
