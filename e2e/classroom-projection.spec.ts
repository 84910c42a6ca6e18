import { generateKeyPairSync } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import {
  CLASSROOM_ORIGIN,
  classroomSale,
  newDataDir,
  person,
  startClassroom,
  stopClassroom,
  traineeRow,
} from './support/classroom-server.ts';

/*
 * The big screen (issue 32 §3): the trainer projects one trainee's attempt timeline; a request the
 * trainee sends afterwards (refused, diagnosed) appears on it live, without a reload.
 */

test('the trainer projects a trainee’s timeline; a new refusal shows live, diagnosed', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const server = await startClassroom(newDataDir());
  try {
    const trainer = await person(browser);
    await trainer.page.goto(server.trainerUrl);
    const ann = await person(browser);
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const joined = await ann.ctx.request.post('/classroom/join', {
      headers: { origin: CLASSROOM_ORIGIN, 'content-type': 'application/json' },
      data: JSON.stringify({ name: 'Ann', publicKeyPem: pem }),
    });
    expect(joined.status(), await joined.text()).toBe(201);
    const me = (await joined.json()) as { endpointId: string; controlKey: string };

    const screen = trainer.page.getByRole('dialog', { name: 'Ann’s attempts' });
    await test.step('the trainer opens the projection of Ann’s attempts', async () => {
      await traineeRow(trainer.page, /Ann/).getByRole('button', { name: 'Project Ann’s attempts' }).click();
      await expect(screen).toBeVisible();
      await expect(screen.getByRole('status')).toHaveText('0 requests · updated live');
      await expect(screen).toContainText('No request yet.');
    });

    await test.step('Ann’s sale with the amount in major units appears, refused and diagnosed', async () => {
      const sent = await classroomSale(ann.page, me, 'ann-1', '10.42');
      expect(sent.status()).toBe(200);
      const timeline = screen.getByRole('list', { name: 'Attempt timeline' });
      await expect(timeline.getByRole('listitem')).toHaveCount(1);
      await expect(timeline.getByRole('listitem').first()).toContainText(
        'refused 400 INVALID_CONTROL_CODE · diagnosis: Amount not in minor units',
      );
      await expect(screen.getByRole('status')).toHaveText('1 request · updated live');
      await expectAccessible(trainer.page, 'the projection of a trainee’s attempts');
    });

    await test.step('Escape closes the projection', async () => {
      await trainer.page.keyboard.press('Escape');
      await expect(screen).toHaveCount(0);
    });
  } finally {
    await stopClassroom(server);
  }
});
