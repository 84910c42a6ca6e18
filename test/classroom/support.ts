/**
 * A classroom server for tests (in-memory or on a temporary folder, fake sandbox clock) and a
 * trainee client that signs with the test signers of test/proxy/signers.ts (Node's crypto, written
 * from the description, independent of src/core) and sends through the real proxy with its cookie.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../proxy/config.ts';
import { buildClassroomServer, type ClassroomServer } from '../../classroom/server.ts';
import type { ClassroomLimits } from '../../classroom/classroom.ts';
import type { SandboxOptions } from '../../sandbox/options.ts';
import { makeDist } from '../proxy/helpers.ts';
import { signControl, signOAuth, type Params } from '../proxy/signers.ts';
import { fakeClock, type FakeClock } from '../sandbox/support.ts';

export const EXERCISES_DIR = path.resolve('classroom/exercises');

export interface Room {
  app: ClassroomServer;
  port: number;
  origin: string;
  clock: FakeClock;
  dataDir: string;
  close(): Promise<void>;
}

export async function startRoom(
  opts: {
    dataDir?: string;
    limits?: Partial<ClassroomLimits>;
    clock?: FakeClock;
    env?: Record<string, string>;
    sandbox?: Partial<SandboxOptions>;
  } = {},
): Promise<Room> {
  const clock = opts.clock ?? fakeClock();
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'classroom-test-'));
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DIST_DIR: makeDist(),
    DATA_DIR: dataDir,
    ...opts.env,
  };
  const config = loadConfig(env);
  const app = await buildClassroomServer(
    config,
    {
      dataDir,
      exercisesDir: EXERCISES_DIR,
      limits: { ratePerSecond: 1000, rateBurst: 1000, ...opts.limits },
    },
    { env, sandbox: { finalizeDelayMs: 1000, clock: () => clock.now, ...opts.sandbox } },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return { app, port, origin: `http://127.0.0.1:${port}`, clock, dataDir, close: () => app.close() };
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export class Trainee {
  login = '';
  controlKey = '';
  endpointId = '';
  endpointGroupId = '';
  id = '';
  cookie = '';
  readonly privateKey: KeyObject;
  readonly publicKeyPem: string;

  constructor(
    readonly room: Room,
    readonly name: string,
  ) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = pair.privateKey;
    this.publicKeyPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }

  async join(): Promise<this> {
    const res = await this.room.app.inject({
      method: 'POST',
      url: '/classroom/join',
      headers: {
        host: `127.0.0.1:${this.room.port}`,
        origin: this.room.origin,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ name: this.name, publicKeyPem: this.publicKeyPem }),
    });
    if (res.statusCode !== 201) throw new Error(`join failed: ${res.body}`);
    const body = JSON.parse(res.body) as Record<string, string>;
    Object.assign(this, {
      login: body.login,
      controlKey: body.controlKey,
      endpointId: body.endpointId,
      endpointGroupId: body.endpointGroupId,
      id: body.traineeId,
    });
    this.cookie = String(res.headers['set-cookie']).split(';')[0]!;
    return this;
  }

  get base(): string {
    return `http://127.0.0.1:${this.room.port}/sandbox/paynet`;
  }

  /** Sends a signed request through the proxy (`/proxy/local/...`) with this trainee's cookie. */
  async sendSigned(signed: { path: string; headers: Record<string, string>; body: string }): Promise<Answer> {
    const res = await this.room.app.inject({
      method: 'POST',
      url: `/proxy/local/${signed.path}`,
      headers: {
        host: `127.0.0.1:${this.room.port}`,
        origin: this.room.origin,
        cookie: this.cookie,
        ...signed.headers,
      },
      payload: signed.body,
    });
    if (res.statusCode !== 200)
      return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
    const envelope = JSON.parse(res.body) as { status: number; body: string };
    return { status: envelope.status, body: JSON.parse(envelope.body) as Record<string, unknown> };
  }

  control(
    opPath: string,
    params: Params,
    over: { controlKey?: string; endpointId?: string } = {},
  ): Promise<Answer> {
    return this.sendSigned(
      signControl(opPath, params, {
        login: this.login,
        controlKey: over.controlKey ?? this.controlKey,
        endpointId: over.endpointId ?? this.endpointId,
      }),
    );
  }

  oauth(
    opPath: string,
    params: Params,
    method: 'HMAC-SHA1' | 'RSA-SHA256',
    over: { controlKey?: string; privateKey?: KeyObject; nowSec?: number } = {},
  ): Promise<Answer> {
    return this.sendSigned(
      signOAuth(
        this.base,
        opPath,
        params,
        {
          login: this.login,
          controlKey: over.controlKey ?? this.controlKey,
          endpointId: this.endpointId,
          privateKey: over.privateKey ?? this.privateKey,
        },
        method,
        over.nowSec ?? Math.floor(this.room.clock.now / 1000),
      ),
    );
  }

  /** v2/status of an acknowledged order (control-signed). */
  status(ack: Record<string, unknown>): Promise<Answer> {
    return this.control('v2/status', [
      ['login', this.login],
      ['client_orderid', String(ack['merchant-order-id'])],
      ['orderid', String(ack['paynet-order-id'])],
    ]);
  }

  async get(
    url: string,
    cookie = this.cookie,
  ): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
    const res = await this.room.app.inject({
      method: 'GET',
      url,
      headers: { host: `127.0.0.1:${this.room.port}`, cookie },
    });
    return { status: res.statusCode, body: res.body, headers: res.headers };
  }

  async view(): Promise<{
    exercises: Array<{ id: string; state: string; detail: string; attempts: number }>;
  }> {
    const r = await this.get('/classroom/me');
    if (r.status !== 200) throw new Error(`me failed: ${r.body}`);
    return JSON.parse(r.body);
  }

  async state(exerciseId: string): Promise<string> {
    await this.room.app.classroom.settled();
    const v = await this.view();
    return v.exercises.find((e) => e.id === exerciseId)!.state;
  }
}

let seq = 0;
export function orderId(prefix = 'cls'): string {
  seq += 1;
  return `${prefix}-${Date.now().toString(36)}-${seq}`;
}

export const CUSTOMER: Params = [
  ['order_desc', 'Classroom order'],
  ['first_name', 'Ann'],
  ['last_name', 'Lee'],
  ['address1', '1 Main Street'],
  ['city', 'Seattle'],
  ['zip_code', '98102'],
  ['country', 'US'],
  ['phone', '12063582043'],
  ['email', 'ann@example.com'],
  ['ipaddress', '203.0.113.7'],
];

export function cardParams(over: Record<string, string> = {}): Params {
  const base: Record<string, string> = {
    client_orderid: orderId(),
    amount: '10.42',
    currency: 'USD',
    card_printed_name: 'ANN LEE',
    credit_card_number: '4444444444444448',
    expire_month: '12',
    expire_year: '2035',
    cvv2: '123',
    ...over,
  };
  const [first, ...rest] = Object.entries(base);
  return [first!, ...CUSTOMER, ...rest];
}

export function payoutParams(over: Record<string, string> = {}): Params {
  return Object.entries({
    client_orderid: orderId('po'),
    amount: '50.00',
    currency: 'USD',
    order_desc: 'Payout',
    ipaddress: '203.0.113.7',
    account_number: 'GB29NWBK60161331926819',
    bank_name: 'Example Bank',
    ...over,
  });
}
