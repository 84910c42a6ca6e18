import { test, expect, type Browser } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import {
  exerciseItem,
  joinAs,
  newDataDir,
  person,
  startClassroom,
  stopClassroom,
  traineeRow,
} from './support/classroom-server.ts';
import { answer, fillTestData, openOperation, send } from './support/fixtures.ts';

/*
 * What trainers met (issue 32 §4), from the browser: a lost connection said on both pages, the
 * restore dialog naming the key in use, a restore's refusal not charged, a drawn locked mark.
 */

test.describe.configure({ mode: 'serial' });

/** A classroom with the trainer's page open and Ann joined. */
async function room(browser: Browser) {
  const dataDir = newDataDir();
  const server = await startClassroom(dataDir);
  const trainer = await person(browser);
  const ann = await person(browser);
  await trainer.page.goto(server.trainerUrl);
  await expect(trainer.page.getByRole('heading', { name: 'Trainer', level: 1 })).toBeVisible();
  const annMerchant = await joinAs(ann.page, 'Ann');
  await expect(traineeRow(trainer.page, /Ann/)).toBeVisible();
  return { dataDir, server, trainer, ann, annMerchant };
}

test('the locked mark is a drawn icon with a text label', async ({ browser }) => {
  test.setTimeout(180_000);
  const { server, trainer } = await room(browser);
  try {
    await test.step('the locked mark is a drawn icon with a text label', async () => {
      const controls = trainer.page
        .getByRole('listitem')
        .filter({ hasText: 'A payout signed with HMAC-SHA1' });
      await controls.getByRole('button', { name: 'Lock' }).click();
      const cell = traineeRow(trainer.page, /Ann/).getByRole('cell', {
        name: /^A payout signed with HMAC-SHA1: locked/,
      });
      await expect(cell).toContainText('locked');
      await expect(cell.locator('svg')).toHaveCount(1);
      await expect(cell).not.toContainText('🔒');
      await expectAccessible(trainer.page, 'the trainer page with a locked exercise');
      await controls.getByRole('button', { name: 'Open' }).click();
      await expect(cell).toHaveCount(0);
    });
  } finally {
    await stopClassroom(server);
  }
});

test('the server stops: both pages say so, and recover when it is back', async ({ browser }) => {
  test.setTimeout(180_000);
  const r = await room(browser);
  const { trainer, ann, dataDir } = r;
  let server = r.server;
  try {
    await test.step('the server stops: both pages say so, and recover when it is back', async () => {
      await ann.page.goto('/classroom');
      await expect(exerciseItem(ann.page, 'An approved sale with a correct control')).toBeVisible();
      const live = trainer.page.getByRole('status').filter({ hasText: 'updated live' });
      await expect(live).toBeVisible();
      await stopClassroom(server);
      await expect(
        trainer.page.getByRole('status').filter({ hasText: 'connection lost, reconnecting…' }),
      ).toBeVisible();
      await expect(
        ann.page.getByRole('status').filter({ hasText: 'Connection lost, reconnecting…' }),
      ).toBeVisible();
      // The last state stays on screen meanwhile.
      await expect(traineeRow(trainer.page, /Ann/)).toBeVisible();
      await expectAccessible(trainer.page, 'the trainer page, reconnecting');
      await expectAccessible(ann.page, 'the exercises page, reconnecting');
      server = await startClassroom(dataDir);
      // No reload: the browsers' own reconnection brings the live state back.
      await expect(live).toBeVisible({ timeout: 30_000 });
      await expect(ann.page.getByText('Connection lost, reconnecting…')).toHaveCount(0, { timeout: 30_000 });
    });
  } finally {
    await stopClassroom(server);
  }
});

test('the restore dialog names the key in use; its refusal is not charged', async ({ browser }) => {
  test.setTimeout(180_000);
  const { server, trainer, ann, annMerchant } = await room(browser);
  try {
    let newFingerprint = '';
    await test.step('Ann makes a new key; the restore dialog names it and when it was made', async () => {
      const yourKey = ann.page.getByRole('region', { name: 'Your key' });
      await yourKey.getByRole('button', { name: 'Make a new key pair and register it' }).click();
      const done = yourKey.getByRole('status');
      await expect(done).toContainText('Registered', { timeout: 30_000 });
      newFingerprint = /fingerprint ([^)]+)\)/.exec((await done.textContent()) ?? '')![1]!;
      await traineeRow(trainer.page, /Ann/)
        .getByRole('button', { name: 'Restore the key Ann joined with' })
        .click();
      const dialog = trainer.page.getByRole('dialog', { name: 'Restore the key Ann joined with?' });
      await expect(dialog).toContainText(
        `Ann now signs with another key: RSA-2048, fingerprint ${newFingerprint}, made `,
      );
      await expect(dialog.locator('time')).toBeVisible();
      await expect(dialog).toContainText(annMerchant.login);
      await expectAccessible(trainer.page, 'the restore dialog');
      await dialog.getByRole('button', { name: 'Restore the key' }).click();
      await expect(trainer.page.getByRole('status').filter({ hasText: /^Restored: / })).toContainText(
        annMerchant.login,
      );
    });
    await test.step('the refusal the restore causes is not charged to Ann', async () => {
      await openOperation(ann.page, 'v4/payout-check');
      await fillTestData(ann.page);
      await send(ann.page);
      await expect(answer(ann.page)).toContainText('INVALID_SIGNATURE');
      const row = traineeRow(trainer.page, /Ann/);
      await expect(row).toContainText('caused by your key restore, not counted as a mistake');
      await expect(
        row.getByRole('cell', { name: /^Payout check, then payout pay, with RSA-SHA256: open, 0 attempts/ }),
      ).toBeVisible();
      await expect(trainer.page.getByText('No diagnosed mistake yet.')).toBeVisible();
    });
  } finally {
    await stopClassroom(server);
  }
});
