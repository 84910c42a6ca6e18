/**
 * Issue 27 §3, from outside: real servers (`npm run sandbox` with HTTPS, `npm run classroom`) are
 * started on a data directory, their files are stat'ed, and the SQLite files are opened by a
 * separate reader: no trainer token, control key or card-hash key is in them, and a brute force of
 * a card's six hidden digits with what the file holds finds nothing. An older file (secrets in
 * clear, modes 0644/0755) is fixed when a server opens it.
 */
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { formBody, minorUnits, orderId, saleParams, sha1 } from '../sandbox/support.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Proc {
  child: ChildProcessWithoutNullStreams;
  out: () => string;
}

/** Starts `script` with Node and tsx's loader (no CLI wrapper process) and waits for `ready`. */
function start(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<Proc & { m: RegExpExecArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', CLASSROOM_QR: '0', ...env },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) resolve({ child, out: () => out, m });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}): ${out}`)));
  });
}

function stop(p: Proc): Promise<void> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    p.child.kill('SIGTERM');
  });
}

const mode = (p: string) => statSync(p).mode & 0o777;

/** Every file and folder under `dir` with its mode. */
function modes(dir: string): Array<[string, number]> {
  const all: Array<[string, number]> = [[dir, mode(dir)]];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const p = path.join(dir, name);
    all.push([p, mode(p)]);
  }
  return all;
}

/** Every state file and folder is the owner's alone (a file of the user's own, `notes.txt`, is left as it was). */
function expectOwnerOnly(dir: string): void {
  const wrong = modes(dir).filter(
    ([p, m]) => !p.endsWith('notes.txt') && m !== (statSync(p).isDirectory() ? 0o700 : 0o600),
  );
  expect(wrong.map(([p, m]) => `${path.relative(dir, p) || '.'} ${m.toString(8)}`)).toEqual([]);
}

/** The database file and its log, as bytes: what a copy of them gives away. */
function rawBytes(db: string): Buffer {
  return Buffer.concat(
    [db, `${db}-wal`].flatMap((f) => {
      try {
        return [readFileSync(f)];
      } catch {
        return [];
      }
    }),
  );
}

function luhn(n: string): boolean {
  let sum = 0;
  for (let i = 0; i < n.length; i++) {
    let v = n.charCodeAt(n.length - 1 - i) - 48;
    if (i % 2 === 1) v = v * 2 > 9 ? v * 2 - 9 : v * 2;
    sum += v;
  }
  return sum % 10 === 0;
}

/** A Luhn-valid 16-digit card number with this BIN and middle. */
function cardNumber(bin: string, middle: string): string {
  for (let d = 0; d <= 9; d++) if (luhn(`${bin}${middle}000${d}`)) return `${bin}${middle}000${d}`;
  throw new Error('no check digit');
}

/**
 * Tries every six hidden digits of each card of the file with every value of its `meta` table as
 * the HMAC key: what someone holding the file alone would try. Returns the numbers found.
 */
function bruteForceFromFile(dbPath: string): string[] {
  const file = new Database(dbPath, { readonly: true });
  try {
    const keys = (file.prepare('SELECT value FROM meta').all() as Array<{ value: string }>).map(
      (r) => r.value,
    );
    const cards = file
      .prepare('SELECT card_bin, card_last4, card_hash FROM orders WHERE card_hash IS NOT NULL')
      .all() as Array<{ card_bin: string; card_last4: string; card_hash: string }>;
    const found: string[] = [];
    for (const c of cards)
      for (const key of keys)
        for (let m = 0; m < 1_000_000; m++) {
          const pan = `${c.card_bin}${String(m).padStart(6, '0')}${c.card_last4}`;
          if (luhn(pan) && createHmac('sha256', key).update(pan).digest('hex') === c.card_hash)
            found.push(pan);
        }
    return found;
  } finally {
    file.close();
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function sale(base: string, pan: string, ca: string): Promise<void> {
  const dispatcher = new Agent({ connect: { ca } });
  const fetch = (url: string, init: Parameters<typeof undiciFetch>[1] = {}) =>
    undiciFetch(url, { ...init, dispatcher });
  const demo = (await (await fetch(`${base.replace(/\/paynet$/, '')}/demo-merchant`)).json()) as {
    controlKey: string;
    endpointIds: string[];
  };
  const endpoint = demo.endpointIds[0]!;
  const p = saleParams({ client_orderid: orderId('rest'), credit_card_number: pan });
  const control = sha1(`${endpoint}${p.client_orderid}${minorUnits(p.amount!)}${p.email}${demo.controlKey}`);
  const res = await fetch(`${base}/api/v2/sale/${endpoint}`, {
    method: 'POST',
    headers: { accept: 'application/vnd.pay+json', 'content-type': 'application/x-www-form-urlencoded' },
    body: formBody({ ...p, control }),
  });
  expect(res.status).toBe(200);
}

describe('secrets at rest', () => {
  it('npm run sandbox: owner-only files, and the database alone gives no card number back', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rest-sandbox-'));
    dirs.push(dir);
    const data = path.join(dir, 'data');
    const db = path.join(data, 'sandbox.sqlite');
    const env = { DATA_DIR: data, SANDBOX_PORT: '0', SANDBOX_HTTPS: '1' };
    let p = await start('sandbox/main.ts', env, /listening: (https:\/\/\S+\/paynet)/);
    const pan = cardNumber('453201', '739265');
    try {
      await sale(
        p.m[1]!.replace('127.0.0.1', 'localhost'),
        pan,
        readFileSync(path.join(data, 'tls/sandbox-ca.pem'), 'utf8'),
      );
      expectOwnerOnly(data);
      expect(modes(data).map(([f]) => path.relative(data, f))).toEqual(
        expect.arrayContaining([
          'sandbox.sqlite',
          'sandbox.sqlite-wal',
          'sandbox.sqlite-shm',
          'tls/sandbox-ca-key.pem',
        ]),
      );
    } finally {
      await stop(p);
    }
    expect(bruteForceFromFile(db)).toEqual([]);
    expect(rawBytes(db).includes(pan)).toBe(false);

    // An older file: the card key in its meta table, folders and files readable by all.
    const file = new Database(db);
    const secret = 'ab'.repeat(32);
    file.prepare("INSERT INTO meta (key, value) VALUES ('card_hash_secret', ?)").run(secret);
    const oldPan = cardNumber('520082', '481730');
    const old = file.prepare('SELECT id FROM orders LIMIT 1').get() as { id: number };
    file
      .prepare('UPDATE orders SET card_bin = ?, card_last4 = ?, card_hash = ? WHERE id = ?')
      .run(
        oldPan.slice(0, 6),
        oldPan.slice(-4),
        createHmac('sha256', secret).update(oldPan).digest('hex'),
        old.id,
      );
    file.close();
    rmSync(`${db}.keys`);
    chmodSync(data, 0o755);
    for (const [f] of modes(data)) chmodSync(f, statSync(f).isDirectory() ? 0o755 : 0o644);
    expect(bruteForceFromFile(db)).toEqual([oldPan]); // the attack works on the old layout

    p = await start('sandbox/main.ts', env, /listening: (https:\/\/\S+\/paynet)/);
    try {
      expectOwnerOnly(data);
    } finally {
      await stop(p);
    }
    expect(bruteForceFromFile(db)).toEqual([]);
    expect(rawBytes(db).includes(secret)).toBe(false);
    // The key moved beside the file, so the old hashes still match.
    const keys = JSON.parse(readFileSync(`${db}.keys`, 'utf8')) as { cardHashSecret: string };
    expect(keys.cardHashSecret).toBe(secret);
  }, 120_000);

  it('npm run classroom: no trainer token or control key in clear, owner-only files', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rest-classroom-'));
    dirs.push(dir);
    const data = path.join(dir, 'room');
    // An older room: its folder readable by all, the token in the classroom's meta table.
    mkdirSync(data, { mode: 0o755 });
    chmodSync(data, 0o755);
    writeFileSync(path.join(data, 'notes.txt'), 'x', { mode: 0o644 });
    const oldToken = 'old-trainer-token-'.padEnd(43, 'z');
    const seeded = new Database(path.join(data, 'classroom.sqlite'));
    seeded.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    seeded.prepare("INSERT INTO meta VALUES ('trainer_token', ?)").run(oldToken);
    seeded.close();
    chmodSync(path.join(data, 'classroom.sqlite'), 0o644);

    const env = { DATA_DIR: data, PORT: '0' };
    const p = await start(
      'classroom/main.ts',
      env,
      /trainer: +(http:\/\/\S+)\/classroom\/trainer-login\?token=(\S+)/,
    );
    const [, origin, token] = p.m;
    let controlKey: string;
    try {
      expect(token).toBe(oldToken); // the trainer's address keeps working
      const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const join = await fetch(`${origin}/classroom/join`, {
        method: 'POST',
        headers: { origin: origin!, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Ann',
          publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }),
        }),
      });
      expect(join.status).toBe(201);
      controlKey = ((await join.json()) as { controlKey: string }).controlKey;
      const login = await fetch(`${origin}/classroom/trainer-login?token=${token}`, { redirect: 'manual' });
      expect(login.status).toBeLessThan(400);
      expectOwnerOnly(data);
      expect(mode(path.join(data, 'notes.txt'))).toBe(0o644);
    } finally {
      await stop(p);
    }
    const files = readdirSync(data, { recursive: true }) as string[];
    const sqlite = files.filter((f) => /\.sqlite(-wal)?$/.test(f)).map((f) => path.join(data, f));
    expect(sqlite.length).toBeGreaterThanOrEqual(2);
    for (const f of sqlite.filter((x) => x.endsWith('.sqlite'))) {
      const bytes = rawBytes(f);
      expect(bytes.includes(token!), f).toBe(false);
      expect(bytes.includes(controlKey), f).toBe(false);
      const reader = new Database(f, { readonly: true });
      const values = (reader.prepare('SELECT value FROM meta').all() as Array<{ value: string }>).map(
        (r) => r.value,
      );
      reader.close();
      expect(values).not.toContain(token);
    }
  }, 120_000);
});
