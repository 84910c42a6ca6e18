import type { Socket } from 'node:net';
import { STATUS_CODES, type ServerOptions } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * Limits of the HTTP servers (`npm start`'s console server and `npm run sandbox`), against slow or
 * greedy clients: a request must arrive whole within `requestTimeoutMs` (its headers within
 * `headersTimeoutMs`), else 408 and the connection is closed; at most `maxConnections` sockets are
 * open at once (more are closed on accept). Answers already being sent, like event streams, are not
 * cut by these timeouts.
 */
export interface ServerLimits {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
}

export const SERVER_LIMIT_DEFAULTS: Readonly<ServerLimits> = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 256,
};

/** An environment variable holding a whole number in [min, max], or `fallback` when unset. */
export const intFrom = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return fallback;
      const n = Number(raw);
      if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a whole number from ${min} to ${max} (got "${raw}")`,
        });
        return z.NEVER;
      }
      return n;
    });

const envSchema = z
  .object({
    SERVER_REQUEST_TIMEOUT_MS: intFrom(
      'SERVER_REQUEST_TIMEOUT_MS',
      100,
      3_600_000,
      SERVER_LIMIT_DEFAULTS.requestTimeoutMs,
    ),
    SERVER_HEADERS_TIMEOUT_MS: intFrom(
      'SERVER_HEADERS_TIMEOUT_MS',
      100,
      3_600_000,
      SERVER_LIMIT_DEFAULTS.headersTimeoutMs,
    ),
    SERVER_KEEPALIVE_TIMEOUT_MS: intFrom(
      'SERVER_KEEPALIVE_TIMEOUT_MS',
      100,
      3_600_000,
      SERVER_LIMIT_DEFAULTS.keepAliveTimeoutMs,
    ),
    SERVER_MAX_CONNECTIONS: intFrom(
      'SERVER_MAX_CONNECTIONS',
      1,
      100_000,
      SERVER_LIMIT_DEFAULTS.maxConnections,
    ),
  })
  .refine((e) => e.SERVER_HEADERS_TIMEOUT_MS <= e.SERVER_REQUEST_TIMEOUT_MS, {
    message:
      'SERVER_HEADERS_TIMEOUT_MS must not be larger than SERVER_REQUEST_TIMEOUT_MS (the headers are part of the request)',
  });

/** Reads {@link ServerLimits} from the environment; throws an Error whose one-line message names the variable. */
export function serverLimitsFromEnv(env: NodeJS.ProcessEnv): ServerLimits {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'invalid server limits');
  return {
    requestTimeoutMs: parsed.data.SERVER_REQUEST_TIMEOUT_MS,
    headersTimeoutMs: parsed.data.SERVER_HEADERS_TIMEOUT_MS,
    keepAliveTimeoutMs: parsed.data.SERVER_KEEPALIVE_TIMEOUT_MS,
    maxConnections: parsed.data.SERVER_MAX_CONNECTIONS,
  };
}

/** The body and type a server answers its clients' protocol failures with (408, 431, 400). */
export type ClientErrorBody = (
  status: number,
  code: string,
  message: string,
) => { contentType: string; body: string };

function describeClientError(err: NodeJS.ErrnoException): { status: number; code: string; message: string } {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      code: 'REQUEST_TIMEOUT',
      message:
        'The request did not arrive in time (its headers, or the whole request, were sent too slowly); the connection is closed. Send the request at once.',
    };
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      code: 'HEADERS_TOO_LARGE',
      message: 'The request line and headers are larger than 16 KiB: send a shorter URL or fewer headers.',
    };
  }
  return {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'The request is not valid HTTP/1.1; the connection is closed.',
  };
}

/**
 * The fastify options that set {@link ServerLimits}: Node's own request and headers timeouts
 * (fastify turns the request timeout off by default), checked often enough that a slow sender is
 * answered soon after its deadline, and client errors answered with `describe`'s body.
 */
export function serverLimitOptions(
  limits: ServerLimits,
  describe: ClientErrorBody,
): {
  requestTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
  clientErrorHandler: (err: Error, socket: Socket) => void;
} {
  const shortest = Math.min(limits.requestTimeoutMs, limits.headersTimeoutMs);
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(shortest / 4))),
    },
    clientErrorHandler: (err: Error, socket: Socket) => {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'ECONNRESET' || socket.destroyed) return;
      const { status, code, message } = describeClientError(e);
      const { contentType, body } = describe(status, code, message);
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: ${contentType}\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy();
    },
  };
}

/** The connection cap: set on the HTTP server once fastify has made it. */
export function applyConnectionCap(app: FastifyInstance, limits: ServerLimits): void {
  app.server.maxConnections = limits.maxConnections;
}
