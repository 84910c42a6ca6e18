import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
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
 * Exam mode and certificates (issue 32 §3), trainer and trainee in their own browsers: the trainer
 * starts an exam, the trainee's sale counts, the trainer ends it, a later request is refused naming
 * the end, the results export; the trainee's certificate verifies with `paysign certificate verify`.
 */

const SALE = 'An approved sale with a correct control';

let seq = 0;
/** A sale with a correct control, sent through the console's proxy with the trainee's session. */
function sale(page: Page, me: { endpointId: string; controlKey: string }) {
  seq += 1;
  return classroomSale(page, me, `exam-${seq}`, '1042');
}

async function download(page: Page, link: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: link }).click(),
  ]);
  const saved = path.join(newDataDir(), file.suggestedFilename());
  await file.saveAs(saved);
  return saved;
}

test('an exam: hints off, the room frozen at its end, results exported; a certificate verified', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const server = await startClassroom(newDataDir());
  try {
    const trainer = await person(browser);
    await trainer.page.goto(server.trainerUrl);
    await expect(trainer.page.getByRole('heading', { name: 'Trainer', level: 1 })).toBeVisible();

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
    await expect(ann.page.getByRole('heading', { name: 'Exercises', level: 1 })).toBeVisible();
    await expect(
      ann.page.getByRole('button', { name: `Skip ${SALE} (done as assisted, no points)` }),
    ).toBeVisible();

    const exam = trainer.page.getByRole('region', { name: 'Exam' });
    await test.step('the trainer starts a 30-minute exam; the trainee sees hints are off', async () => {
      await exam.getByLabel('Exam length (minutes)').fill('30');
      await exam.getByRole('button', { name: 'Start the exam' }).click();
      await expect(exam.getByRole('status')).toContainText(
        /Exam running until \d\d:\d\d:\d\d UTC \(30 min\)/,
      );
      await expect(ann.page.getByText(/Exam until \d\d:\d\d:\d\d UTC: hints and Skip are off/)).toBeVisible();
      await expect(ann.page.getByRole('button', { name: /^Skip / })).toHaveCount(0);
      await expectAccessible(trainer.page, 'the trainer page with an exam running');
    });

    await test.step('the trainee’s sale during the exam counts', async () => {
      expect((await sale(ann.page, me)).status()).toBe(200);
      await expect(
        traineeRow(trainer.page, /Ann/).getByRole('cell', { name: new RegExp(`^${SALE}: done`) }),
      ).toBeVisible();
    });

    await test.step('the trainer ends the exam: a later request is refused, naming the end', async () => {
      await exam.getByRole('button', { name: 'End the exam now' }).click();
      await expect(exam.getByRole('status')).toContainText(
        /Exam over at \d\d:\d\d:\d\d UTC: the room is frozen/,
      );
      await expect(ann.page.getByText(/The exam ended at \d\d:\d\d:\d\d UTC/)).toBeVisible();
      const state = (await (await trainer.page.request.get('/classroom/trainer/exam')).json()) as {
        endsAt: string;
      };
      const late = await sale(ann.page, me);
      const text = await late.text();
      expect(text).toContain('EXAM_OVER');
      expect(text).toContain(`The exam ended at ${state.endsAt}`);
    });

    await test.step('the exam’s results export as CSV and JSON', async () => {
      const csv = readFileSync(await download(trainer.page, 'Export the exam’s results (CSV)'), 'utf8');
      expect(csv.split('\r\n')[0]).toMatch(/^exam_started_at,exam_ended_at,trainee,login,exercise,/);
      expect(csv).toMatch(/,Ann,trainee-\d+,sale-control,[^\r\n]*,done,1,no,/);
      const json = JSON.parse(
        readFileSync(await download(trainer.page, 'Export the exam’s results (JSON)'), 'utf8'),
      ) as {
        exam: { state: string };
        trainees: Array<{ name: string; points: number }>;
      };
      expect(json.exam.state).toBe('over');
      expect(json.trainees).toEqual([expect.objectContaining({ name: 'Ann', points: 10 })]);
    });

    await test.step('the certificate, from the trainee’s page and the trainer’s, verifies offline', async () => {
      for (const file of [
        await download(ann.page, 'Download your certificate'),
        await download(trainer.page, 'Certificate of Ann'),
      ]) {
        const out = execFileSync(
          process.execPath,
          ['--import', 'tsx', 'src/cli/paysign.ts', 'certificate', 'verify', file],
          { encoding: 'utf8' },
        );
        expect(out).toMatch(/^OK: signed by did:key:z6Mk/);
        expect(out).toContain(`${SALE} (unassisted)`);
      }
    });
  } finally {
    await stopClassroom(server);
  }
});
