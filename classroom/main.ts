// `npm run classroom`: the console for a room of trainees (see README, "Classroom").
import path from 'node:path';
import { ConfigError, loadConfig, urlHost } from '../proxy/config.ts';
import { closeOnSignals, listenOrExit } from '../proxy/start-server.ts';
import { intFrom } from '../sandbox/server-limits.ts';
import { z } from 'zod';
import { qrTerminal } from './join-qr.ts';
import { classroomAddresses, buildClassroomServer } from './server.ts';
import { errorText } from '../src/core/errors.ts';

const env = { ...process.env };
// The classroom keeps its sandbox apart from `npm start`'s, and listens on its own port.
env.DATA_DIR ??= '.data/classroom';
env.PORT ??= '4190';

const settingsSchema = z.object({
  EXERCISES_DIR: z.string().trim().min(1).optional(),
  CLASSROOM_MAX_TRAINEES: intFrom('CLASSROOM_MAX_TRAINEES', 1, 10_000, 200),
  CLASSROOM_RATE: intFrom('CLASSROOM_RATE', 1, 1000, 10),
});

function fail(message: string): never {
  console.error(`pay-console classroom: ${message}`);
  process.exit(1);
}

let config;
let settings;
try {
  config = loadConfig(env);
  const s = settingsSchema.safeParse(env);
  if (!s.success) fail(s.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  settings = s.data;
} catch (err) {
  if (err instanceof ConfigError) fail(err.message);
  throw err;
}

let app;
try {
  app = await buildClassroomServer(config, {
    dataDir: env.DATA_DIR,
    exercisesDir: path.resolve(settings.EXERCISES_DIR ?? 'classroom/exercises'),
    limits: {
      maxTrainees: settings.CLASSROOM_MAX_TRAINEES,
      ratePerSecond: settings.CLASSROOM_RATE,
      rateBurst: settings.CLASSROOM_RATE * 3,
    },
  });
} catch (err) {
  fail(errorText(err).split('\n')[0]!);
}
const port = await listenOrExit(app, config, 'pay-console classroom');
const shown = classroomAddresses(config.host)[0] ?? urlHost(config.host);
const base = `http://${shown}:${port}`;
console.log(
  [
    'pay-console classroom',
    `  join (trainees):  ${base}/join`,
    `  trainer:          ${base}/classroom/trainer-login?token=${app.classroom.trainerToken()}`,
    '                    (keep the trainer address to yourself: it carries the trainer token)',
    `  exercises:        ${app.classroom.exercises.length} from ${path.resolve(settings.EXERCISES_DIR ?? 'classroom/exercises')}`,
    `  state:            ${path.resolve(env.DATA_DIR)}`,
    config.host === '127.0.0.1' || config.host === 'localhost'
      ? '  listening on loopback only: start with HOST=0.0.0.0 (or an interface address) for a room'
      : `  listening on ${config.host}`,
    '',
  ].join('\n'),
);
// The room scans the join address off the terminal; CLASSROOM_QR=0 leaves it out, =1 prints it into a log too.
if (process.env.CLASSROOM_QR === '1' || (process.env.CLASSROOM_QR !== '0' && process.stdout.isTTY))
  console.log(`${qrTerminal(`${base}/join`)}\n`);
closeOnSignals(app, 'pay-console classroom');
