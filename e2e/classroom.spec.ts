import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { answer, fillTestData, openOperation, pollUntilFinal, send } from './support/fixtures.ts';

/*
 * A trainer and two trainees, each in a browser context of their own, against `npm run classroom`'s
 * server (started here, on its own port and data folder, and restarted to prove the state persists).
 */

const PORT = Number(process.env.CLASSROOM_E2E_PORT ?? Number(process.env.E2E_PORT ?? 4183) + 7);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DATA_DIR = mkdtempSync(path.join(tmpdir(), 'classroom-e2e-'));

interface Server {
  child: ChildProcess;
  trainerUrl: string;
}

function startServer(): Promise<Server> {
  // Node itself (no npx wrapper), so SIGTERM reaches the server and it closes cleanly.
  const child = spawn(process.execPath, ['--import', 'tsx', 'classroom/main.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      SANDBOX_FINALIZE_DELAY_MS: '300',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`classroom server did not start:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /trainer:\s+(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, trainerUrl: m[1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`classroom server exited (${code}):\n${out}`)));
  });
}

function stopServer(s: Server): Promise<void> {
  return new Promise((resolve) => {
    if (s.child.exitCode !== null) return resolve();
    s.child.once('exit', () => resolve());
    s.child.kill('SIGTERM');
    // A server that does not close within 10 s is ended hard: the test then restarts it anyway.
    setTimeout(() => s.child.kill('SIGKILL'), 10_000).unref();
  });
}

async function context(browser: Browser): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ baseURL: ORIGIN });
  return { ctx, page: await ctx.newPage() };
}

/** README screenshots (docs/screenshots/classroom-*.png), taken on the way. */
const shot = (page: Page, name: string, fullPage = false) =>
  page.screenshot({
    path: path.join(process.cwd(), 'docs', 'screenshots', `classroom-${name}.png`),
    fullPage,
  });

async function join(
  page: Page,
  name: string,
  screenshot = false,
): Promise<{ login: string; endpointId: string }> {
  await page.goto('/join');
  await page.getByLabel('Display name').fill(name);
  if (screenshot) {
    await expectAccessible(page, 'the join page');
    await shot(page, 'join');
  }
  await page.getByRole('button', { name: 'Join' }).click();
  await expect(page).toHaveURL(/\/classroom$/);
  await expect(page.getByRole('heading', { name: 'Exercises', level: 1 })).toBeVisible();
  const me = (await (await page.request.get('/classroom/me')).json()) as {
    trainee: { login: string; endpointId: string };
  };
  return me.trainee;
}

const exercise = (page: Page, title: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
const row = (page: Page, name: string | RegExp) =>
  page.getByRole('table', { name: 'Trainees and exercises' }).getByRole('row', { name });

test.describe.configure({ mode: 'serial' });

test('a trainer and two trainees: join, pass and fail, live trainer page, isolation, restart', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  let server = await startServer();
  try {
    const trainer = await context(browser);
    const ann = await context(browser);
    const bob = await context(browser);

    await test.step('the trainer opens the trainer address', async () => {
      await trainer.page.goto(server.trainerUrl);
      await expect(trainer.page).toHaveURL(/\/trainer$/);
      await expect(trainer.page.getByRole('heading', { name: 'Trainer', level: 1 })).toBeVisible();
      await expect(trainer.page.getByText('0 trainees')).toBeVisible();
      // The join address and its QR code, for the projector (this server's own origin).
      const joinUrl = `${new URL(server.trainerUrl).origin}/join`;
      const qr = trainer.page.getByRole('img', { name: `QR code of the join address ${joinUrl}` });
      await expect(qr).toBeVisible();
      await expect
        .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
      // Without the operations list the page takes the whole width (it was squeezed into the list's column).
      const main = await trainer.page.locator('main').boundingBox();
      expect(main!.width).toBeGreaterThan(0.9 * trainer.page.viewportSize()!.width);
    });

    let annMerchant = { login: '', endpointId: '' };
    await test.step('two trainees join and get merchants of their own', async () => {
      annMerchant = await join(ann.page, 'Ann', true);
      const bobMerchant = await join(bob.page, 'Bob');
      expect(annMerchant.login).not.toBe(bobMerchant.login);
      await expect(row(trainer.page, /Ann/)).toBeVisible();
      await expect(row(trainer.page, /Bob/)).toBeVisible();
      // Trainee credentials do not open the trainer page.
      await bob.page.goto('/trainer');
      await expect(bob.page.getByRole('alert')).toContainText('trainer');
    });

    await test.step('Ann passes the sale exercise in the ordinary workbench', async () => {
      await openOperation(ann.page, 'v2/sale');
      await expect(ann.page.getByLabel('Login', { exact: true })).toHaveValue(annMerchant.login);
      await fillTestData(ann.page, '123');
      await send(ann.page);
      await expect(
        answer(ann.page).getByRole('status', { name: 'Status: accepted: processing' }),
      ).toBeVisible();
      await pollUntilFinal(ann.page, 'approved');
      await expect(
        row(trainer.page, /Ann/).getByRole('cell', {
          name: /^An approved sale with a correct control: done/,
        }),
      ).toBeVisible();
    });

    await test.step('Bob fails: a wrong control, and a wrong answer', async () => {
      await bob.page.goto('/classroom');
      const me = (await (await bob.page.request.get('/classroom/me')).json()) as {
        trainee: { login: string; endpointId: string };
      };
      const body = new URLSearchParams({
        client_orderid: 'bob-1',
        amount: '10.42',
        email: 'bob@example.com',
        control: '0'.repeat(40),
      }).toString();
      const sent = await bob.page.request.post(`/proxy/local/api/v2/sale/${me.trainee.endpointId}`, {
        headers: {
          origin: ORIGIN,
          accept: 'application/vnd.pay+json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        data: body,
      });
      expect(sent.status()).toBe(200);
      const quiz = exercise(bob.page, 'What is wrong with this capture?');
      await quiz.getByLabel('uppercase-hex').check();
      await quiz.getByRole('button', { name: 'Answer' }).click();
      await expect(quiz.getByText('Your answer: uppercase-hex')).toBeVisible();
      await expect(quiz.getByRole('status')).toContainText('not the mistake');
      await expect(row(trainer.page, /Bob/)).toContainText(/INVALID_CONTROL_CODE|VALIDATION/);
      await expectAccessible(trainer.page, 'the trainer page');
      await shot(trainer.page, 'trainer', true);
    });

    await test.step('isolation: Bob cannot send to Ann’s endpoint', async () => {
      const res = await bob.page.request.post(`/proxy/local/api/v2/sale/${annMerchant.endpointId}`, {
        headers: {
          origin: ORIGIN,
          accept: 'application/vnd.pay+json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        data: 'client_orderid=x',
      });
      const envelope = (await res.json()) as { status: number; body: string };
      expect(envelope.status).toBe(403);
      expect(envelope.body).toContain('NOT_YOUR_ENDPOINT');
      const mine = await (await bob.page.request.get('/classroom/me')).text();
      expect(mine).not.toContain(annMerchant.login);
    });

    await test.step('the trainer reveals a hint; Ann sees it live', async () => {
      await ann.page.goto('/classroom');
      const sale = exercise(ann.page, 'An approved sale with a correct control');
      await expect(sale.getByRole('status')).toContainText('Done');
      await trainer.page
        .getByRole('button', { name: /^Reveal a hint of A payout signed with HMAC-SHA1/ })
        .click();
      const hint = exercise(ann.page, 'A payout signed with HMAC-SHA1').getByText(
        'The signing key is your control key followed by &.',
      );
      await expect(hint).toBeVisible();
      await expectAccessible(ann.page, 'the exercises page');
      await shot(ann.page, 'exercises');
    });

    await test.step('a restart keeps trainees, merchants and results', async () => {
      await stopServer(server);
      server = await startServer();
      await ann.page.goto('/classroom');
      await expect(
        exercise(ann.page, 'An approved sale with a correct control').getByRole('status'),
      ).toContainText('Done');
      await trainer.page.goto('/trainer');
      await expect(
        row(trainer.page, /Ann/).getByRole('cell', {
          name: /^An approved sale with a correct control: done/,
        }),
      ).toBeVisible();
      await expect(row(trainer.page, /Bob/)).toBeVisible();
    });
  } finally {
    await stopServer(server);
  }
});
