import { generateKeyPairSync } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import {
  CLASSROOM_ORIGIN,
  classroomSale,
  exerciseItem,
  newDataDir,
  person,
  startClassroom,
  stopClassroom,
  traineeRow,
} from './support/classroom-server.ts';

/*
 * Hints that pick themselves and Skip (issue 32 §2), trainer and trainee in their own browsers: the
 * trainer turns them on for an exercise; the trainee's refused request with a diagnosable mistake
 * unlocks the hint for that mistake on their open page (pushed, no reload); Skip marks it assisted.
 */

const SALE = 'An approved sale with a correct control';

test('a hint unlocks for the trainee’s own mistake; Skip marks the exercise assisted', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const server = await startClassroom(newDataDir());
  try {
    const trainer = await person(browser);
    await trainer.page.goto(server.trainerUrl);
    await expect(trainer.page.getByRole('heading', { name: 'Trainer', level: 1 })).toBeVisible();

    await test.step('the trainer turns self-unlocking hints on, after 1 refusal, cost 2', async () => {
      await trainer.page.getByLabel(`Own hint after (refusals) for ${SALE}`).fill('1');
      const controls = trainer.page.getByRole('listitem').filter({ hasText: SALE });
      await controls.getByLabel('cost (points)').fill('2');
      await controls.getByRole('button', { name: 'Turn on' }).click();
      await expect(controls).toContainText('on: after 1, −2 points');
      await expectAccessible(trainer.page, 'the trainer page with its hint settings');
    });

    // Ann joins through the API (her control key comes back) and opens her exercises page.
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
    await ann.page.goto('/classroom');
    const sale = exerciseItem(ann.page, SALE);
    await expect(sale).toContainText('After 1 refused request, a hint for your own mistake unlocks here');

    await test.step('a refused sale (amount in major units in control) unlocks that hint, live', async () => {
      const sent = await classroomSale(ann.page, me, 'ann-1', '10.42');
      expect(sent.status()).toBe(200);
      const hints = ann.page.getByRole('region', { name: `Hints for your mistakes in ${SALE}` });
      await expect(hints).toContainText('Amount not in minor units');
      await expect(hints).toContainText('−2 points');
      await expect(ann.page.getByText(/0 of \d+ done, -2 points/)).toBeVisible();
      await expect(
        traineeRow(trainer.page, /Ann/).getByRole('cell', {
          name: new RegExp(`^${SALE}: .*hints: Amount not in minor units`),
        }),
      ).toBeVisible();
      await expectAccessible(ann.page, 'the exercises page with an unlocked hint');
    });

    await test.step('Skip marks the exercise done and assisted', async () => {
      await sale.getByRole('button', { name: `Skip ${SALE} (done as assisted, no points)` }).click();
      await expect(sale.getByRole('status', { name: `Status of ${SALE}` })).toContainText('Done');
      await expect(sale).toContainText('Skipped: counted as done, assisted (no points).');
      await expect(
        traineeRow(trainer.page, /Ann/).getByRole('cell', { name: new RegExp(`^${SALE}: done.*assisted`) }),
      ).toBeVisible();
    });
  } finally {
    await stopClassroom(server);
  }
});
