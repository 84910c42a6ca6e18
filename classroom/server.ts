import { networkInterfaces } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyListenOptions } from 'fastify';
import type { MistakeId } from '../src/diagnose/index.ts';
import { nodeCryptoPort } from '../src/node/node-crypto-port.ts';
import { urlHost, type ServerConfig } from '../proxy/config.ts';
import { allowedHosts, allowedOrigins, listeningPort } from '../proxy/guards.ts';
import { buildServer, type BuildServerOptions, type ConsoleServer } from '../proxy/server.ts';
import { Classroom, DEFAULT_LIMITS, type ClassroomLimits } from './classroom.ts';
import { ClassroomStore } from './classroom-store.ts';
import { confirmedCauseOfCapture } from './diagnose-attempt.ts';
import { ExerciseFileError, loadExerciseFiles, type Exercise } from './exercise-schema.ts';
import {
  classroomPolicy,
  classroomProxyAuthorize,
  classroomRoutes,
  readCookie,
  TRAINEE_COOKIE,
} from './http.ts';
import { extendPolicy } from '../sandbox/route-access.ts';
import { sandboxOptionsFromEnv } from '../sandbox/options.ts';
import { CLASSROOM_CALLBACK_HOSTS_ENV, parseCallbackHosts, traineeCallbackRule } from './callback-rule.ts';
import { TrainerScenarios, trainerScenarioRoutes } from './trainer-scenarios.ts';
import { secureDataDir } from '../sandbox/secure-files.ts';
import { errorText } from '../src/core/errors.ts';
import { Exam, examRoutes } from './exam.ts';
import { certificateKey, certificateRoutes, Certificates } from './certificates.ts';
import { PushedCaptures } from './pushed-captures.ts';
import { pushedCaptureRoutes } from './pushed-routes.ts';
import { timelineRoutes } from './timeline-routes.ts';

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

/**
 * Connections one trainee's browser holds: its event streams (exercises, pushed captures) and one or
 * two for requests. The console's cap (256) would close a room of 200's sockets on accept.
 */
export const CONNECTIONS_PER_TRAINEE = 4;

/** The server's limits for a room of `maxTrainees`: its connection cap grows with the room unless set. */
export function roomLimits(
  config: ServerConfig,
  maxTrainees: number,
  env: Record<string, string | undefined>,
): ServerConfig['limits'] {
  if (env.SERVER_MAX_CONNECTIONS?.trim()) return config.limits;
  const room = CONNECTIONS_PER_TRAINEE * maxTrainees + 64;
  return { ...config.limits, maxConnections: Math.max(config.limits.maxConnections, room) };
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
  // The trainer's token, trainees' merchants and results: the owner's alone (docs/security.md).
  if (settings.dataDir !== ':memory:') secureDataDir(settings.dataDir);
  const store = new ClassroomStore(
    settings.dataDir === ':memory:' ? ':memory:' : path.join(settings.dataDir, 'classroom.sqlite'),
  );
  const classroom = new Classroom(store, exercises, causes, settings.limits);
  const scenarios = new TrainerScenarios(store, classroom);
  const exam = new Exam(store, classroom);
  const certificates = new Certificates(certificateKey(settings.dataDir), classroom);
  const pushed = new PushedCaptures(store, nodeCryptoPort(), () => Date.now());
  const addresses = classroomAddresses(config.host);
  const env = options.env ?? process.env;
  let allowedCallbackHosts;
  try {
    allowedCallbackHosts = parseCallbackHosts(env[CLASSROOM_CALLBACK_HOSTS_ENV]);
  } catch (e) {
    store.close();
    throw e;
  }
  // Inbox name → trainee: who may read an inbox, and whose callbacks may be sent to it.
  const inboxOwners = new Map<string, string>();
  let server: FastifyInstance | undefined;
  const callbackRule = traineeCallbackRule({
    traineeOfLogin: (login) => store.traineeIdOfLogin(login),
    inboxOwners,
    port: () => (server ? listeningPort(server, config) : config.port),
    serverHosts: () => allowedHosts(classroomConfig, server ? listeningPort(server, config) : config.port),
    allowed: allowedCallbackHosts,
  });
  // The Host allow-list and the console's origins include the address the trainer gave.
  const classroomConfig: ServerConfig = {
    ...config,
    limits: roomLimits(config, settings.limits?.maxTrainees ?? DEFAULT_LIMITS.maxTrainees, env),
    targets: [],
    allowedHosts: [...config.allowedHosts, ...addresses.map((a) => `${a}:${config.port}`.toLowerCase())],
    allowedOrigins: [...config.allowedOrigins, ...addresses.map((a) => `http://${a}:${config.port}`)],
  };
  const httpOf = (app: FastifyInstance) => ({
    classroom,
    inboxOwners,
    origins: () => allowedOrigins(classroomConfig, listeningPort(app, classroomConfig)),
  });
  let app: ConsoleServer;
  try {
    app = await buildServer(classroomConfig, {
      ...options,
      sandbox: {
        ...options.sandbox,
        onAttempt: (a) => classroom.onAttempt(a),
        onReady: (handle) => {
          classroom.attach(handle);
          scenarios.attach(handle);
        },
        // Scenarios are the trainer's (trainer-scenarios.ts): a trainee's header is refused.
        scenarioHeader: 'refuse',
        // Held answers count per trainee: a room may share one address (docs/security.md).
        heldClientOf: (request) => {
          const t = classroom.traineeBySession(readCookie(request.headers.cookie, TRAINEE_COOKIE));
          return t ? `trainee:${t.id}` : undefined;
        },
        callbackRule,
        // The hosts the trainer allows must pass the sandbox's own host rule too.
        callbackHosts: [
          ...(options.sandbox?.callbackHosts ?? sandboxOptionsFromEnv(env).callbackHosts ?? []),
          ...allowedCallbackHosts.map((h) => h.host),
        ],
      },
      proxyAuthorize: classroomProxyAuthorize(),
      pageMode: 'classroom',
      access: (base, app) =>
        extendPolicy(extendPolicy(base, classroomPolicy(httpOf(app))), { 'gateway-api': exam.requestRule }),
      extend: async (app: FastifyInstance) => {
        server = app;
        const http = httpOf(app);
        await app.register(
          async (scope) => {
            await classroomRoutes(scope, http);
            await trainerScenarioRoutes(scope, scenarios);
            examRoutes(scope, exam, classroom);
            certificateRoutes(scope, certificates, classroom);
            await pushedCaptureRoutes(scope, pushed, classroom);
            await timelineRoutes(scope, store, classroom);
          },
          { prefix: '/classroom' },
        );
        app.addHook('onClose', async () => {
          await classroom.close();
          store.close();
        });
      },
    });
  } catch (e) {
    store.close();
    throw e;
  }
  // A room connects at once (a class starting, every browser after a restart): the listen queue
  // holds the room's connections, where Node's 511 overflowed and the kernel dropped the rest
  // (clients retry after 1, 3, 7, 15 s: the bench's 20 s answers and connect timeouts at 1,000).
  const listen = app.listen.bind(app) as (opts: FastifyListenOptions) => Promise<string>;
  const backlog = classroomConfig.limits.maxConnections;
  const listenWithBacklog = (opts: FastifyListenOptions = {}) => listen({ backlog, ...opts });
  return Object.assign(app, { classroom, listen: listenWithBacklog as typeof app.listen });
}
