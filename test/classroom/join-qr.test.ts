import jsQR from 'jsqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrModules, qrSvg, qrTerminal } from '../../classroom/join-qr.ts';
import { startRoom, Trainee, type Room } from './support.ts';

/** Paints modules into an RGBA image, 6 px each, and reads it back with jsQR (an independent decoder). */
function decode(modules: boolean[][]): string | undefined {
  const cell = 6;
  const size = modules.length * cell;
  const rgba = new Uint8ClampedArray(size * size * 4);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const v = modules[Math.floor(y / cell)]![Math.floor(x / cell)] ? 0 : 255;
      rgba.set([v, v, v, 255], (y * size + x) * 4);
    }
  return jsQR(rgba, size, size)?.data;
}

const ESC = String.fromCharCode(27);
const SGR = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');

/** The terminal rendering read back: each character is two module rows (top, bottom). */
function fromTerminal(text: string): boolean[][] {
  const rows: boolean[][] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(SGR, '');
    const top: boolean[] = [];
    const bottom: boolean[] = [];
    for (const ch of line) {
      top.push(ch === '▀' || ch === '█');
      bottom.push(ch === '▄' || ch === '█');
    }
    rows.push(top, bottom);
  }
  return rows;
}

/** The SVG rendering read back: one `M x y h1v1h-1z` square per dark module. */
function fromSvg(svg: string): boolean[][] {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
  const m = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const [, x, y] of svg.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) m[Number(y)]![Number(x)] = true;
  return m;
}

const JOIN = 'http://192.168.1.20:4190/join';

describe('the join address as a QR code', () => {
  it('encodes the address, readable by an independent decoder, with a four-module quiet zone', () => {
    const m = qrModules(JOIN);
    expect(decode(m)).toBe(JOIN);
    for (const i of [0, 1, 2, 3, m.length - 1]) {
      expect(m[i]!.some(Boolean)).toBe(false);
      expect(m.some((row) => row[i])).toBe(false);
    }
    expect(m[4]![4]).toBe(true); // the finder pattern's corner
  });

  it('prints the same modules in the terminal, black on white whatever the theme', () => {
    const text = qrTerminal(JOIN);
    const m = qrModules(JOIN);
    expect(fromTerminal(text).slice(0, m.length)).toEqual(m);
    for (const line of text.split('\n')) {
      expect(line.startsWith(`${ESC}[30;47m`)).toBe(true);
      expect(line.endsWith(`${ESC}[0m`)).toBe(true);
    }
    expect(decode(fromTerminal(text).slice(0, m.length))).toBe(JOIN);
  });

  it('draws the same modules in the SVG, titled with the address (escaped)', () => {
    const svg = qrSvg(JOIN);
    expect(fromSvg(svg)).toEqual(qrModules(JOIN));
    expect(decode(fromSvg(svg))).toBe(JOIN);
    expect(qrSvg('http://x/join?a=<b>&c')).toContain('<title>http://x/join?a=&#60;b&#62;&#38;c</title>');
  });
});

describe('GET /classroom/trainer/join-qr.svg', () => {
  let room: Room;
  let ann: Trainee;
  beforeAll(async () => {
    room = await startRoom();
    ann = await new Trainee(room, 'Ann').join();
  });
  afterAll(async () => {
    await room?.close();
  });

  it('shows the trainer the join address of the host they reached, and no one else', async () => {
    expect((await ann.get('/classroom/trainer/join-qr.svg')).status).toBe(403);
    expect((await ann.get('/classroom/trainer/join-qr.svg', '')).status).toBe(401);
    const login = await ann.get(`/classroom/trainer-login?token=${room.app.classroom.trainerToken()}`, '');
    const trainerCookie = String(login.headers['set-cookie']).split(';')[0]!;
    const res = await ann.get('/classroom/trainer/join-qr.svg', trainerCookie);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(decode(fromSvg(res.body))).toBe(`http://127.0.0.1:${room.port}/join`);
  });
});
