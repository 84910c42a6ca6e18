import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';

/*
 * `npm run classroom`'s server for the classroom journeys (each spec its own data folder), and the
 * people in the room: a trainer and trainees, each in a browser context of their own.
 */

export const CLASSROOM_PORT = Number(
  process.env.CLASSROOM_E2E_PORT ?? Number(process.env.E2E_PORT ?? 4183) + 7,
);
export const CLASSROOM_ORIGIN = `http://127.0.0.1:${CLASSROOM_PORT}`;

export interface ClassroomProcess {
  child: ChildProcess;
  trainerUrl: string;
  dataDir: string;
}

export function newDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'classroom-e2e-'));
}

export function startClassroom(dataDir: string, env: Record<string, string> = {}): Promise<ClassroomProcess> {
  // Node itself (no npx wrapper), so SIGTERM reaches the server and it closes cleanly.
  const child = spawn(process.execPath, ['--import', 'tsx', 'classroom/main.ts'], {
    env: {
      ...process.env,
      PORT: String(CLASSROOM_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SANDBOX_FINALIZE_DELAY_MS: '300',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`classroom server did not start:\n${out}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /trainer:\s+(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, trainerUrl: m[1]!, dataDir });
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`classroom server exited (${code}):\n${out}`)));
  });
}

export function stopClassroom(s: ClassroomProcess): Promise<void> {
  return new Promise((resolve) => {
    if (s.child.exitCode !== null) return resolve();
    s.child.once('exit', () => resolve());
    s.child.kill('SIGTERM');
    setTimeout(() => s.child.kill('SIGKILL'), 10_000).unref();
  });
}

export interface Person {
  ctx: BrowserContext;
  page: Page;
}

export async function person(browser: Browser): Promise<Person> {
  const ctx = await browser.newContext({ baseURL: CLASSROOM_ORIGIN });
  return { ctx, page: await ctx.newPage() };
}

export async function joinAs(
  page: Page,
  name: string,
): Promise<{ id: string; login: string; endpointId: string }> {
  await page.goto('/join');
  await page.getByLabel('Display name').fill(name);
  await page.getByRole('button', { name: 'Join' }).click();
  await expect(page).toHaveURL(/\/classroom$/);
  await expect(page.getByRole('heading', { name: 'Exercises', level: 1 })).toBeVisible();
  const me = (await (await page.request.get('/classroom/me')).json()) as {
    trainee: { id: string; login: string; endpointId: string };
  };
  return me.trainee;
}

export const exerciseItem = (page: Page, title: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
export const traineeRow = (page: Page, name: string | RegExp) =>
  page.getByRole('table', { name: 'Trainees and exercises' }).getByRole('row', { name });

/**
 * A trainee's `v2/sale`, signed here with node:crypto (the test's own signer, not the console's)
 * and sent through the classroom's proxy with the trainee's session. `amountInControl` is the
 * amount as the formula takes it: `1042` is right, `10.42` the major-units mistake.
 */
export function classroomSale(
  page: Page,
  me: { endpointId: string; controlKey: string },
  clientOrderId: string,
  amountInControl: '1042' | '10.42',
) {
  const body = {
    client_orderid: clientOrderId,
    order_desc: 'Classroom order',
    first_name: 'Ann',
    last_name: 'Lee',
    address1: '1 Main Street',
    city: 'Seattle',
    zip_code: '98102',
    country: 'US',
    phone: '12063582043',
    email: 'ann@example.com',
    ipaddress: '203.0.113.7',
    amount: '10.42',
    currency: 'USD',
    card_printed_name: 'ANN LEE',
    credit_card_number: '4444444444444448',
    expire_month: '12',
    expire_year: '2035',
    cvv2: '123',
  };
  const control = createHash('sha1')
    .update(`${me.endpointId}${clientOrderId}${amountInControl}${body.email}${me.controlKey}`)
    .digest('hex');
  return page.request.post(`/proxy/local/api/v2/sale/${me.endpointId}`, {
    headers: {
      origin: CLASSROOM_ORIGIN,
      accept: 'application/vnd.pay+json',
      'content-type': 'application/x-www-form-urlencoded',
    },
    data: new URLSearchParams({ ...body, control }).toString(),
  });
}
