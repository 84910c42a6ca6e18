import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
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

interface Someone {
  ctx: BrowserContext;
  page: Page;
  /** The page's console errors and uncaught errors, with the address they came on. */
  errors: string[];
}

/** Records a page's console errors and uncaught errors (a refused request logs one in Chromium). */
function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error')
      errors.push(`${new URL(page.url()).pathname}: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(`${new URL(page.url()).pathname}: uncaught ${e.message}`));
  return errors;
}

async function context(browser: Browser): Promise<Someone> {
  const ctx = await browser.newContext({ baseURL: ORIGIN });
  const page = await ctx.newPage();
  return { ctx, page, errors: watchConsole(page) };
}

/** A clean console: nothing logged as an error since the last check. */
function expectCleanConsole(who: Someone, where: string): void {
  expect(who.errors, `console errors on ${where}`).toEqual([]);
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

/** A public key nobody in the room holds the private half of. */
function otherPublicKey(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 })
    .publicKey.export({ type: 'spki', format: 'pem' })
    .toString();
}

/** How many classroom credentials this browser keeps (IndexedDB `pay-console-classroom`). */
function storedCredentials(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('pay-console-classroom');
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('credentials')) return resolve(0);
          const count = db.transaction('credentials').objectStore('credentials').count();
          count.onsuccess = () => {
            resolve(count.result);
            db.close();
          };
          count.onerror = () => reject(count.error ?? new Error('count failed'));
        };
      }),
  );
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
      // The page the classroom serves says so, and the demo merchant is neither preloaded nor asked for.
      await expect(trainer.page.locator('meta[name="pay-console-mode"]')).toHaveAttribute(
        'content',
        'classroom',
      );
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
    let bobMerchant = { login: '', endpointId: '' };
    await test.step('two trainees join and get merchants of their own', async () => {
      annMerchant = await join(ann.page, 'Ann', true);
      bobMerchant = await join(bob.page, 'Bob');
      expect(annMerchant.login).not.toBe(bobMerchant.login);
      await expect(row(trainer.page, /Ann/)).toBeVisible();
      await expect(row(trainer.page, /Bob/)).toBeVisible();
      // Trainee credentials do not open the trainer page (a refusal, on a tab of its own).
      const tab = await bob.ctx.newPage();
      await tab.goto('/trainer');
      await expect(tab.getByRole('alert')).toContainText('trainer');
      await tab.close();
    });

    await test.step('a clean console on the join, exercises and trainer pages', async () => {
      // Before joining: the join page asks nothing that is refused (no demo merchant, no /classroom/me).
      const newcomer = await context(browser);
      await newcomer.page.goto('/join');
      await expect(newcomer.page.getByLabel('Display name')).toBeVisible();
      await newcomer.page.goto('/classroom');
      await expect(newcomer.page.getByRole('alert')).toContainText('You have not joined this classroom');
      // The profile bar is set up (with no demo merchant): what the first page asks for has been answered.
      await expect(
        newcomer.page
          .getByRole('region', { name: 'Merchant credentials' })
          .getByLabel('Profile', { exact: true }),
      ).toBeVisible();
      expectCleanConsole(newcomer, 'the join and exercises pages before joining');
      await newcomer.ctx.close();
      // The trainees' join and exercises pages, and the trainer's page, since they opened.
      expectCleanConsole(ann, 'Ann’s join and exercises pages');
      expectCleanConsole(bob, 'Bob’s join and exercises pages');
      expectCleanConsole(trainer, 'the trainer page');
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
      // The choices are the diagnosis engine's labels, not its ids.
      await expect(quiz.getByRole('radio')).toHaveCount(4);
      await expect(quiz.getByRole('radio', { name: 'Amount not in minor units' })).toBeVisible();
      await expect(quiz.getByText('uppercase-hex')).toHaveCount(0);
      await quiz.getByRole('radio', { name: 'Uppercase hex' }).check();
      await quiz.getByRole('button', { name: 'Answer' }).click();
      await expect(quiz.getByText('Your answer: Uppercase hex')).toBeVisible();
      await expect(quiz.getByRole('status')).toContainText('not the mistake');
      await expect(row(trainer.page, /Bob/)).toContainText(/INVALID_CONTROL_CODE|VALIDATION/);
      // The trainer sees which wrong cause Bob named.
      await expect(
        row(trainer.page, /Bob/).getByRole('cell', {
          name: /^What is wrong with this capture\?: open, 1 attempts, wrong answers: Uppercase hex$/,
        }),
      ).toBeVisible();
      await expectAccessible(trainer.page, 'the trainer page');
      await shot(trainer.page, 'trainer', true);
    });

    await test.step('the trainer chooses a scenario for one trainee, in both themes', async () => {
      const perTrainee = trainer.page.getByRole('table', { name: 'Scenario per trainee' });
      const annRow = perTrainee.getByRole('row', { name: /Ann/ });
      await annRow.getByRole('combobox', { name: 'Scenario for Ann' }).selectOption('final-error');
      await expect(annRow.getByRole('cell').last()).toHaveText('final-error');
      await expect(perTrainee.getByRole('row', { name: /Bob/ }).getByRole('cell').last()).toHaveText(
        'none (happy path)',
      );
      for (const theme of ['dark', 'light'] as const) {
        await trainer.page.evaluate((t) => localStorage.setItem('pay-console.theme', t), theme);
        await trainer.page.reload();
        await expect(trainer.page.locator('html')).toHaveAttribute('data-theme', theme);
        await expect(annRow.getByRole('cell').last()).toHaveText('final-error');
        await expectAccessible(trainer.page, `the trainer page's scenarios (${theme})`);
      }
      await annRow.getByRole('combobox', { name: 'Scenario for Ann' }).selectOption('room');
      await expect(annRow.getByRole('cell').last()).toHaveText('none (happy path)');
    });

    await test.step('Bob opens the capture in the debugger, which names its mistake', async () => {
      const quiz = exercise(bob.page, 'What is wrong with this capture?');
      // The exercise's capture, as a text field holds it (line breaks as \n).
      const capture = (
        JSON.parse(readFileSync('classroom/exercises/05-broken-capture.json', 'utf8')) as {
          check: { capture: string };
        }
      ).check.capture.replace(/\r\n/g, '\n');
      await quiz.getByRole('link', { name: 'Open this capture in the debugger' }).click();
      await expect(bob.page).toHaveURL(/\/debugger#capture=/);
      await expect(bob.page.getByRole('heading', { name: 'Signature debugger', level: 1 })).toBeVisible();
      await expect(bob.page.getByRole('textbox', { name: 'Captured request' })).toHaveValue(capture);
      await bob.page.getByLabel('Merchant control key').fill('TEACH-0000-1111-2222-3333');
      await bob.page.getByRole('button', { name: 'Diagnose' }).click();
      await expect(bob.page.getByRole('region', { name: 'Diagnosis' })).toContainText(
        'Amount not in minor units',
      );
      await bob.page.goto('/classroom');
      await expect(bob.page.getByRole('heading', { name: 'Exercises', level: 1 })).toBeVisible();
    });

    await test.step('the trainer’s Reset asks first, naming what is lost', async () => {
      const bobRow = row(trainer.page, /Bob/);
      await bobRow.getByRole('button', { name: 'Reset Bob' }).click();
      const dialog = trainer.page.getByRole('dialog', { name: 'Reset Bob?' });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText("Bob's progress and attempts are deleted");
      await expect(dialog).toContainText('1 wrong answer');
      await expect(dialog).toContainText(
        'What is wrong with this capture?: open, 1 attempt; wrong answer Uppercase hex',
      );
      await expect(dialog).toContainText(bobMerchant.login);
      await expectAccessible(trainer.page, 'the reset confirmation');
      // Cancel keeps everything.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await expect(bobRow).toContainText('wrong: Uppercase hex');
      // Confirmed, the progress goes.
      await bobRow.getByRole('button', { name: 'Reset Bob' }).click();
      await dialog.getByRole('button', { name: 'Reset and delete the progress' }).click();
      await expect(dialog).toBeHidden();
      await expect(bobRow).not.toContainText('wrong: Uppercase hex');
      await expect(
        bobRow.getByRole('cell', { name: /^What is wrong with this capture\?: open, 0 attempts$/ }),
      ).toBeVisible();
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

    await test.step('Ann’s key was replaced: she registers a new one from the exercises page', async () => {
      // Another public key registered for Ann's merchant (as after a lost key, or someone else's doing).
      const put = await ann.page.request.put(`/sandbox/merchants/${annMerchant.login}/public-key`, {
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        data: JSON.stringify({ publicKeyPem: otherPublicKey() }),
      });
      expect(put.status(), await put.text()).toBe(200);
      await openOperation(ann.page, 'v4/payout-check');
      await fillTestData(ann.page);
      await send(ann.page);
      await expect(answer(ann.page)).toContainText('INVALID_SIGNATURE');

      await ann.page.goto('/classroom');
      const yourKey = ann.page.getByRole('region', { name: 'Your key' });
      await yourKey.getByRole('button', { name: 'Make a new key pair and register it' }).click();
      await expect(yourKey.getByRole('status')).toContainText('Registered', { timeout: 30_000 });
      // The workbench signs with the new key at once, and after a reload (it is kept with the credentials).
      for (const reload of [false, true]) {
        await openOperation(ann.page, 'v4/payout-check');
        if (reload) await ann.page.reload();
        await fillTestData(ann.page);
        await send(ann.page);
        await expect(answer(ann.page).getByText(/^HTTP 200\b/)).toBeVisible();
        await expect(answer(ann.page)).not.toContainText('INVALID_SIGNATURE');
      }
      expectCleanConsole(ann, 'Ann’s pages');
    });

    await test.step('the trainer restores the key Bob joined with, after asking', async () => {
      const put = await bob.page.request.put(`/sandbox/merchants/${bobMerchant.login}/public-key`, {
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        data: JSON.stringify({ publicKeyPem: otherPublicKey() }),
      });
      expect(put.status(), await put.text()).toBe(200);
      await row(trainer.page, /Bob/).getByRole('button', { name: 'Restore the key Bob joined with' }).click();
      const dialog = trainer.page.getByRole('dialog', { name: 'Restore the key Bob joined with?' });
      await expect(dialog).toContainText(bobMerchant.login);
      await dialog.getByRole('button', { name: 'Restore the key' }).click();
      await expect(trainer.page.getByRole('status').filter({ hasText: /^Restored: / })).toContainText(
        bobMerchant.login,
      );
      await openOperation(bob.page, 'v4/payout-check');
      await fillTestData(bob.page);
      await send(bob.page);
      await expect(answer(bob.page).getByText(/^HTTP 200\b/)).toBeVisible();
      expectCleanConsole(trainer, 'the trainer page');
    });

    await test.step('Bob leaves the classroom: asked first, his credentials leave this browser', async () => {
      await bob.page.goto('/classroom');
      const bar = bob.page.getByRole('region', { name: 'Merchant credentials' });
      await expect(bar.getByRole('status').filter({ hasText: 'Classroom credentials' })).toHaveText(
        /^Classroom credentials are kept in this browser \(IndexedDB, unencrypted\) until you leave the classroom\./,
      );
      await expect(
        bar.getByText('Secrets stay in memory for this session only.', { exact: true }),
      ).toHaveCount(0);
      await bar.getByRole('button', { name: 'Leave this classroom' }).click();
      const dialog = bob.page.getByRole('dialog', { name: 'Leave this classroom?' });
      await expect(dialog).toContainText(bobMerchant.login);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      expect(await storedCredentials(bob.page)).toBe(1);
      await bar.getByRole('button', { name: 'Leave this classroom' }).click();
      await dialog.getByRole('button', { name: 'Leave and delete the credentials' }).click();
      await expect(bob.page).toHaveURL(/\/join$/);
      await expect(bob.page.getByRole('heading', { name: 'Join the classroom' })).toBeVisible();
      expect(await storedCredentials(bob.page)).toBe(0);
      const status = (await (await bob.page.request.get('/classroom/status')).json()) as { joined: boolean };
      expect(status.joined).toBe(false);
      // No classroom profile is left, and nothing on the page asks for Bob's old merchant.
      await bob.page.goto('/');
      await expect(bob.page.getByLabel('Profile', { exact: true })).not.toContainText('Classroom: Bob');
      await expect(bob.page.getByRole('link', { name: 'Exercises' })).toHaveCount(0);
      expectCleanConsole(bob, 'Bob’s pages');
      // The trainer's table keeps Bob's row.
      await expect(row(trainer.page, /Bob/)).toBeVisible();
    });

    await test.step('a restart keeps trainees, merchants and results', async () => {
      // The server goes away for a moment: the pages' live streams say so in the console.
      expectCleanConsole(trainer, 'the trainer page');
      expectCleanConsole(ann, 'Ann’s pages');
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
