import { generateKeyPairSync } from 'node:crypto';
import { test, expect, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import {
  CLASSROOM_ORIGIN,
  exerciseItem,
  joinAs,
  newDataDir,
  person,
  startClassroom,
  stopClassroom,
} from './support/classroom-server.ts';

/*
 * Per-trainee variants (issue 32 §1) from the browser: each trainee's broken capture is their own,
 * a neighbour's answer is wrong for them, and the trainer sees each variant and its expected answer.
 */

const QUESTION = 'Your own broken capture';

interface Snapshot {
  trainees: Array<{ id: string; name: string; variants?: Array<{ exerciseId: string; expected: string }> }>;
}

/** The mistake id the trainer's snapshot expects from a trainee on the question. */
async function expectedMistake(trainer: Page, traineeId: string): Promise<string> {
  const snap = (await (await trainer.request.get('/classroom/trainer/state')).json()) as Snapshot;
  const v = snap.trainees
    .find((t) => t.id === traineeId)!
    .variants!.find((x) => x.exerciseId === 'own-broken-capture')!;
  return /\(([a-z-]+)\)/.exec(v.expected)![1]!;
}

test('each trainee diagnoses their own capture; the trainer sees every variant', async ({ browser }) => {
  test.setTimeout(180_000);
  const server = await startClassroom(newDataDir());
  try {
    const trainer = await person(browser);
    await trainer.page.goto(server.trainerUrl);
    await expect(trainer.page.getByRole('heading', { name: 'Trainer', level: 1 })).toBeVisible();
    const ann = await person(browser);
    const annMe = await joinAs(ann.page, 'Ann');
    const annMistake = await expectedMistake(trainer.page, annMe.id);

    // Neighbours join until one's capture is broken another way (each draw is 1 in 3).
    let bob: Awaited<ReturnType<typeof person>> | undefined;
    for (let i = 0; i < 12 && !bob; i++) {
      const p = await person(browser);
      const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
        .publicKey.export({ type: 'spki', format: 'pem' })
        .toString();
      const res = await p.ctx.request.post('/classroom/join', {
        headers: { origin: CLASSROOM_ORIGIN, 'content-type': 'application/json' },
        data: JSON.stringify({ name: `Neighbour ${i}`, publicKeyPem: pem }),
      });
      expect(res.status(), await res.text()).toBe(201);
      const id = ((await res.json()) as { traineeId: string }).traineeId;
      if ((await expectedMistake(trainer.page, id)) !== annMistake) bob = p;
      else await p.ctx.close();
    }
    expect(bob, 'a neighbour whose capture is broken another way').toBeDefined();
    await bob!.page.goto('/classroom');

    await test.step('the two captures differ', async () => {
      const annCapture = await exerciseItem(ann.page, QUESTION)
        .getByLabel('The broken request')
        .textContent();
      const bobCapture = await exerciseItem(bob!.page, QUESTION)
        .getByLabel('The broken request')
        .textContent();
      expect(annCapture).toContain('POST /paynet/api/v2/capture/');
      expect(bobCapture).not.toBe(annCapture);
    });

    await test.step('the trainer sees each variant and its expected answer', async () => {
      await trainer.page.getByText('Variants and expected answers (not for the projector)').click();
      const table = trainer.page.getByRole('table', { name: 'Variants and expected answers' });
      await expect(table.getByRole('row', { name: `Ann: ${QUESTION}` })).toContainText(`(${annMistake})`);
      await expect(table.getByRole('row', { name: /Ann: Preauth, partial capture, return/ })).toContainText(
        /remainder \d+\.\d{2} USD/,
      );
      await expectAccessible(trainer.page, 'the trainer page with its variants');
    });

    await test.step('Ann’s answer is wrong for her neighbour, right for her', async () => {
      for (const [who, verdict] of [
        [bob!.page, 'that is not the mistake this capture shows'],
        [ann.page, 'mistake named; now send a correct v2/capture'],
      ] as const) {
        const quiz = exerciseItem(who, QUESTION);
        // The radio whose value is Ann's mistake id (its label is the diagnosis engine's title).
        await quiz.locator(`input[type="radio"][value="${annMistake}"]`).check();
        await quiz.getByRole('button', { name: 'Answer' }).click();
        await expect(quiz.getByRole('status', { name: `Status of ${QUESTION}` })).toContainText(verdict);
      }
      await expectAccessible(ann.page, 'the exercises page with a variant');
    });
  } finally {
    await stopClassroom(server);
  }
});
