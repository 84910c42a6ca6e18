import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classroomIndexHtml } from '../../proxy/static-console.ts';
import { startRoom, Trainee, type Room } from './support.ts';

describe('a trainee’s session: status, leaving, and the page’s mode', () => {
  let room: Room;
  beforeAll(async () => {
    room = await startRoom();
  });
  afterAll(async () => {
    await room?.close();
  });
  const get = (url: string, cookie?: string) =>
    room.app.inject({
      method: 'GET',
      url,
      headers: { host: `127.0.0.1:${room.port}`, ...(cookie ? { cookie } : {}) },
    });

  it('answers /classroom/status with 200 before and after joining', async () => {
    const before = await get('/classroom/status');
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ joined: false });
    const ann = await new Trainee(room, 'Ann').join();
    const after = await get('/classroom/status', ann.cookie);
    expect(after.json()).toEqual({ joined: true, traineeId: ann.id, name: 'Ann', login: ann.login });
  });

  it('ends the session on leaving, for good (after a restart too); the trainer keeps the row', async () => {
    const cy = await new Trainee(room, 'Cy').join();
    const leave = await room.app.inject({
      method: 'POST',
      url: '/classroom/leave',
      headers: { host: `127.0.0.1:${room.port}`, origin: room.origin, cookie: cy.cookie },
    });
    expect(leave.statusCode).toBe(204);
    expect(String(leave.headers['set-cookie'])).toMatch(/^pc_trainee=; .*Max-Age=0/);
    expect((await get('/classroom/me', cy.cookie)).statusCode).toBe(401);
    expect((await get('/classroom/status', cy.cookie)).json()).toEqual({ joined: false });
    expect(room.app.classroom.trainerSnapshot().trainees.map((t) => t.name)).toContain('Cy');
    const dataDir = room.dataDir;
    await room.close();
    room = await startRoom({ dataDir });
    expect((await get('/classroom/me', cy.cookie)).statusCode).toBe(401);
  });

  it('marks the classroom’s index.html and drops the demo merchant’s preload (closed there: a 403)', async () => {
    const served = await get('/exercises');
    expect(served.statusCode).toBe(200);
    expect(served.body).toContain('<meta name="pay-console-mode" content="classroom" />');
    const html = readFileSync('index.html', 'utf8');
    expect(html).toContain('href="/sandbox/demo-merchant"');
    const classroom = classroomIndexHtml(html);
    expect(classroom).toContain('<meta name="pay-console-mode" content="classroom" />');
    expect(classroom).not.toContain('/sandbox/demo-merchant');
    expect(classroom).toContain('href="/proxy/targets"');
  });
});
