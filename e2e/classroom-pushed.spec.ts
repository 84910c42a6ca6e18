import { test, expect, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { joinAs, newDataDir, person, startClassroom, stopClassroom } from './support/classroom-server.ts';

/*
 * A pushed capture (issue 32 §3), trainer and trainees each in a browser of their own: the trainer
 * pushes a broken capture to every trainee's debugger ("what is wrong with this one?"); it arrives on
 * the trainees' open pages (no reload), opens in the debugger, and each answer appears on the
 * trainer's page as it is sent, graded against the diagnosis engine's finding.
 */

const question = (page: Page) =>
  page.getByRole('region', { name: 'The trainer asks: what is wrong with this one?' });

test('a broken capture pushed to the room; the answers arrive live, graded', async ({ browser }) => {
  test.setTimeout(180_000);
  const server = await startClassroom(newDataDir());
  try {
    const trainer = await person(browser);
    await trainer.page.goto(server.trainerUrl);
    await expect(trainer.page.getByRole('heading', { name: 'Trainer', level: 1 })).toBeVisible();
    const ann = await person(browser);
    const bob = await person(browser);
    await joinAs(ann.page, 'Ann');
    await joinAs(bob.page, 'Bob');
    await ann.page.goto('/debugger');
    await expect(ann.page.getByRole('heading', { name: 'Signature debugger' })).toBeVisible();
    await expect(question(ann.page)).toHaveCount(0);

    const panel = trainer.page.getByRole('region', { name: 'What is wrong with this one?' });
    await test.step('the trainer pushes a capture broken by upper-case hex', async () => {
      await panel.getByLabel('Mistake to make').selectOption({ label: 'Uppercase hex' });
      await panel.getByRole('button', { name: 'Push a broken capture to every trainee' }).click();
      await expect(panel.getByRole('status')).toHaveText('0 answered · 0 right · 0 wrong · 2 waiting');
      // Folded away from the projector, the engine's finding the answers are graded against.
      await panel.getByText('The engine’s finding (not for the projector)').click();
      await expect(panel.getByRole('group')).toContainText('Uppercase hex uppercase-hex');
      await expectAccessible(trainer.page, 'the trainer page with a pushed capture');
    });

    await test.step('it reaches Ann’s debugger; the debugger finds its mistake', async () => {
      await expect(question(ann.page)).toBeVisible();
      await question(ann.page).getByRole('link', { name: 'Open the pushed capture in the debugger' }).click();
      const form = ann.page.getByRole('form', { name: 'Captured request and secrets' });
      await expect(form.getByLabel('Captured request')).toHaveValue(/control=[0-9A-F]{40}/);
      await form.getByLabel('Merchant control key').fill('TEACH-0000-1111-2222-3333');
      await form.getByRole('button', { name: 'Diagnose' }).click();
      await expect(ann.page.getByRole('region', { name: 'Diagnosis' })).toContainText('Uppercase hex');
      await expectAccessible(ann.page, 'the debugger with a pushed question');
    });

    await test.step('Ann names it, Bob (on his exercises page) names another; the trainer sees both', async () => {
      await question(ann.page).getByRole('radio', { name: 'Uppercase hex' }).check();
      await question(ann.page).getByRole('button', { name: 'Send my answer' }).click();
      await expect(question(ann.page).getByRole('status')).toContainText('Your answer: Uppercase hex. Sent');
      await expect(question(bob.page)).toBeVisible();
      await question(bob.page).getByRole('radio', { name: 'Amount not in minor units' }).check();
      await question(bob.page).getByRole('button', { name: 'Send my answer' }).click();

      const answers = panel.getByRole('table', { name: 'Answers to the pushed capture' });
      await expect(answers.getByRole('row', { name: 'Ann' })).toContainText('Uppercase hexright');
      await expect(answers.getByRole('row', { name: 'Bob' })).toContainText('Amount not in minor unitswrong');
      await expect(panel.getByRole('status')).toHaveText('2 answered · 1 right · 1 wrong · 0 waiting');
    });

    await test.step('the trainer closes the question: each trainee sees the finding', async () => {
      await panel.getByRole('button', { name: 'Close the question' }).click();
      await expect(question(ann.page).getByRole('status')).toHaveText(
        'Your answer: Uppercase hex — right: the debugger finds the same.',
      );
      await expect(question(bob.page).getByRole('status')).toHaveText(
        'Your answer: Amount not in minor units — not it: the debugger finds Uppercase hex.',
      );
    });
  } finally {
    await stopClassroom(server);
  }
});
