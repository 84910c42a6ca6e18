/**
 * Issue 32 §5: a room's trainees each hold a few connections (their event streams and their
 * requests); the console's cap of 256 sockets closed a room of 1,000's on accept (the bench's
 * "socket closed" errors). The classroom's cap grows with its room, unless the operator set one.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CONNECTIONS_PER_TRAINEE } from '../../classroom/server.ts';
import { startRoom, type Room } from './support.ts';

/** `ss` (iproute2) reads a listening socket's queue bound; without it that one check skips, saying so. */
const noSs = spawnSync('ss', ['-V']).status !== 0;
/** The kernel clamps every listen queue to this (net.core.somaxconn). */
function somaxconn(): number {
  try {
    return Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8').trim()) || 4096;
  } catch {
    return 4096;
  }
}

let room: Room | undefined;
afterEach(async () => {
  await room?.close();
  room = undefined;
});

describe("the classroom's connection cap", () => {
  it('holds every trainee of a full room', async () => {
    room = await startRoom({ limits: { maxTrainees: 1000 } });
    expect(CONNECTIONS_PER_TRAINEE).toBeGreaterThanOrEqual(3);
    expect(room.app.server.maxConnections).toBeGreaterThanOrEqual(1000 * CONNECTIONS_PER_TRAINEE);
  });

  it.skipIf(noSs)(
    'listens with a queue for the whole room connecting at once, not the default 511',
    async () => {
      room = await startRoom({ limits: { maxTrainees: 1000 } });
      // `ss` shows a listening socket's accept queue bound as its Send-Q.
      const line = execFileSync('ss', ['-ltnH', `sport = :${room.port}`], { encoding: 'utf8' }).trim();
      const backlog = Number(line.split(/\s+/)[2]);
      expect(backlog).toBeGreaterThanOrEqual(Math.min(1000 * CONNECTIONS_PER_TRAINEE, somaxconn()));
    },
  );

  it('keeps the one SERVER_MAX_CONNECTIONS sets', async () => {
    room = await startRoom({ limits: { maxTrainees: 1000 }, env: { SERVER_MAX_CONNECTIONS: '300' } });
    expect(room.app.server.maxConnections).toBe(300);
  });
});
