import qrcode from 'qrcode-generator';

/** The light border QR readers need around the code, in modules (the standard asks for four). */
const QUIET = 4;

/**
 * The join address as a QR code: dark modules as `true`, quiet zone included. Level M survives a
 * projector's glare and a phone held at an angle.
 */
export function qrModules(text: string): boolean[][] {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const n = qr.getModuleCount();
  const size = n + 2 * QUIET;
  return Array.from({ length: size }, (_, r) =>
    Array.from({ length: size }, (_, c) => {
      const y = r - QUIET;
      const x = c - QUIET;
      return y >= 0 && y < n && x >= 0 && x < n && qr.isDark(y, x);
    }),
  );
}

const BLOCKS = [' ', '▄', '▀', '█'] as const;

/**
 * For the terminal: two module rows per text line with half blocks, black on white set explicitly
 * so the code reads the same on dark and light terminal themes.
 */
export function qrTerminal(text: string): string {
  const m = qrModules(text);
  const lines: string[] = [];
  for (let r = 0; r < m.length; r += 2) {
    let line = '';
    for (let c = 0; c < m.length; c++) {
      const top = m[r]![c]! ? 2 : 0;
      const bottom = m[r + 1]?.[c] ? 1 : 0;
      line += BLOCKS[top + bottom];
    }
    lines.push(`\x1b[30;47m${line}\x1b[0m`);
  }
  return lines.join('\n');
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** For the trainer page: a scalable SVG, one path of the dark modules, titled with the address. */
export function qrSvg(text: string): string {
  const m = qrModules(text);
  let d = '';
  m.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${m.length} ${m.length}" shape-rendering="crispEdges" role="img">`,
    `<title>${escapeXml(text)}</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<path fill="#000" d="${d}"/>`,
    '</svg>',
  ].join('');
}
