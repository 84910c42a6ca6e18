import { networkInterfaces } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { MistakeId } from '../src/diagnose/index.ts';
import { nodeCryptoPort } from '../src/node/node-crypto-port.ts';
import { urlHost, type ServerConfig } from '../proxy/config.ts';
import { allowedOrigins, listeningPort } from '../proxy/guards.ts';
import { buildServer, type BuildServerOptions, type ConsoleServer } from '../proxy/server.ts';
import { Classroom, type ClassroomLimits } from './classroom.ts';
import { ClassroomStore } from './classroom-store.ts';
import { confirmedCauseOfCapture } from './diagnose-attempt.ts';
import { ExerciseFileError, loadExerciseFiles, type Exercise } from './exercise-schema.ts';
import { classroomPolicy, classroomProxyAuthorize, classroomRoutes } from './http.ts';
import { extendPolicy } from '../sandbox/route-access.ts';
import { errorText } from '../src/core/errors.ts';

export interface ClassroomSettings {
  /** Where the classroom keeps its state (classroom.sqlite); the sandbox's database is set apart. */
  dataDir: string;
  exercisesDir: string;
  limits?: Partial<ClassroomLimits>;
}

export type ClassroomServer = ConsoleServer & { classroom: Classroom };

/** The addresses trainees may use: the one the trainer named, or every interface's for a wildcard. */
export function classroomAddresses(host: string): string[] {
  if (host !== '0.0.0.0' && host !== '::' && host !== '[::]') return [urlHost(host)];
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) {
      if (a.internal) continue;
      if (a.family === 'IPv4') out.push(a.address);
      else if (host !== '0.0.0.0') out.push(`[${a.address}]`);
    }
  return out;
}

/** Each diagnose-then-fix exercise's confirmed cause, which must be one of its choices. */
async function confirmedCauses(exercises: readonly Exercise[], dir: string): Promise<Map<string, MistakeId>> {
  const crypto = nodeCryptoPort();
  const causes = new Map<string, MistakeId>();
  for (const ex of exercises) {
    if (ex.check.kind !== 'diagnose-then-fix') continue;
    let cause: MistakeId | undefined;
    try {
      cause = await confirmedCauseOfCapture(ex.check.capture, ex.check.captureControlKey, crypto);
    } catch (e) {
      throw new ExerciseFileError(
        `${dir}: exercise "${ex.id}": check.capture cannot be read (${errorText(e)}).`,
      );
    }
    if (!cause)
      throw new ExerciseFileError(
        `${dir}: exercise "${ex.id}": check.capture: the diagnosis engine confirms no mistake in it (check captureControlKey).`,
      );
    if (!(ex.check.choices as readonly string[]).includes(cause))
      throw new ExerciseFileError(
        `${dir}: exercise "${ex.id}": check.choices: the capture's confirmed cause is ${cause}; list it among the choices.`,
      );
    causes.set(ex.id, cause);
  }
  return causes;
}

/**
 * `npm run classroom`'s server: the console's server (pages, proxy, callback inbox, sandbox) with
 * the classroom's routes, its guard, the proxy limited to the local sandbox, and the sandbox's
 * attempts fed to the classroom.
 */
export async function buildClassroomServer(
  config: ServerConfig,
  settings: ClassroomSettings,
  options: BuildServerOptions = {},
): Promise<ClassroomServer> {
  const exercises = loadExerciseFiles(settings.exercisesDir);
  const causes = await confirmedCauses(exercises, settings.exercisesDir);
  const store = new ClassroomStore(
    settings.dataDir === ':memory:' ? ':memory:' : path.join(settings.dataDir, 'classroom.sqlite'),
  );
  const classroom = new Classroom(store, exercises, causes, settings.limits);
  const addresses = classroomAddresses(config.host);
  // The Host allow-list and the console's origins include the address the trainer gave.
  const classroomConfig: ServerConfig = {
    ...config,
    targets: [],
    allowedHosts: [...config.allowedHosts, ...addresses.map((a) => `${a}:${config.port}`.toLowerCase())],
    allowedOrigins: [...config.allowedOrigins, ...addresses.map((a) => `http://${a}:${config.port}`)],
  };
  const httpOf = (server: FastifyInstance) => ({
    classroom,
    origins: () => allowedOrigins(classroomConfig, listeningPort(server, classroomConfig)),
  });
  let app: ConsoleServer;
  try {
    app = await buildServer(classroomConfig, {
      ...options,
      sandbox: {
        ...options.sandbox,
        onAttempt: (a) => classroom.onAttempt(a),
        onReady: (handle) => classroom.attach(handle),
      },
      proxyAuthorize: classroomProxyAuthorize(),
      pageMode: 'classroom',
      access: (base, server) => extendPolicy(base, classroomPolicy(httpOf(server))),
      extend: async (server: FastifyInstance) => {
        const http = httpOf(server);
        await server.register(async (scope) => classroomRoutes(scope, http), { prefix: '/classroom' });
        server.addHook('onClose', async () => {
          await classroom.close();
          store.close();
        });
      },
    });
  } catch (e) {
    store.close();
    throw e;
  }
  return Object.assign(app, { classroom });
}
