import { parseCapture, type CaptureFormat } from '../../capture/parse-capture.ts';
import { parseHar } from '../../capture/parse-har.ts';
import { parseAccessLog } from '../../capture/parse-access-log.ts';
import type { CapturedRequest } from '../../capture/parse-raw-http.ts';

/** One request found in a pasted incident: what it is, when, and the text it came from. */
export interface IncidentItem {
  request: CapturedRequest;
  format: CaptureFormat;
  schemeKnown: boolean;
  headersComplete: boolean;
  /** Epoch ms, when the capture says. */
  time?: number;
  /** The HTTP status the server answered (an access log's, a HAR entry's). */
  answerStatus?: number;
  /** The answer's body, when the capture has it (a HAR entry's). */
  answerBody?: string;
  /** Where it came from: `file.har#3`, `paste:12`. */
  source: string;
}

const MONTHS = 'JanFebMarAprMayJunJulAugSepOctNovDec';

/** The time a log line starts with (ISO, Monolog's `[Y-m-d H:i:s]`, an access log's `[d/Mon/Y:H:M:S +zone]`). */
export function lineTime(line: string): number | undefined {
  const iso = /(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:[.,]\d+)?)(Z|[+-]\d\d:?\d\d)?/.exec(line);
  if (iso) {
    const t = Date.parse(`${iso[1]}T${iso[2]!.replace(',', '.')}${iso[3] ?? 'Z'}`);
    if (!Number.isNaN(t)) return t;
  }
  const clf = /\[(\d\d)\/([A-Z][a-z]{2})\/(\d{4}):(\d\d:\d\d:\d\d) ([+-]\d{4})\]/.exec(line);
  if (clf) {
    const month = String(MONTHS.indexOf(clf[2]!) / 3 + 1).padStart(2, '0');
    const t = Date.parse(`${clf[3]}-${month}-${clf[1]}T${clf[4]}${clf[5]!.slice(0, 3)}:${clf[5]!.slice(3)}`);
    if (!Number.isNaN(t)) return t;
  }
  const epoch = /"time"\s*:\s*(\d{13})/.exec(line);
  return epoch ? Number(epoch[1]) : undefined;
}

/** The blocks of a text: a HAR file, curl commands (with continuations), raw HTTP, single lines. */
function blocks(text: string): string[] {
  const t = text.replace(/^\uFEFF/, '').trim();
  if (t === '') return [];
  if (/^\{/.test(t)) {
    try {
      JSON.parse(t);
      return [t];
    } catch {
      /* JSON lines, read one by one below */
    }
  }
  const lines = t.split(/\r?\n/);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    if (/^\s*(?:\$\s+)?curl\s/.test(line)) {
      let block = line;
      while (/\\\s*$/.test(lines[i]!) && i + 1 < lines.length) block += `\n${lines[++i]}`;
      const doc = /<<-?\s*['"]?(\w+)/.exec(block);
      if (doc) while (i + 1 < lines.length && (block += `\n${lines[++i]}`) && lines[i]!.trim() !== doc[1]);
      out.push(block);
      continue;
    }
    if (/^[A-Z]+ \S+ HTTP\/\d/.test(line)) {
      // Raw HTTP: the head up to the blank line, then the body line.
      let block = line;
      while (i + 1 < lines.length && lines[i + 1]!.trim() !== '') block += `\n${lines[++i]}`;
      if (i + 2 < lines.length) block += `\n\n${lines[(i += 2)]}`;
      out.push(block);
      continue;
    }
    out.push(line);
  }
  return out;
}

/**
 * Every request an incident holds, in the order given: a HAR file's entries (with their answers),
 * each log line that names a request, curl commands, raw HTTP, access-log lines of callbacks.
 * Lines that are none (a stack trace, the logger's other lines) are counted, not read.
 */
export function splitIncident(files: ReadonlyArray<{ name: string; text: string }>): {
  items: IncidentItem[];
  skipped: number;
} {
  const items: IncidentItem[] = [];
  let skipped = 0;
  for (const file of files) {
    for (const [n, block] of blocks(file.text).entries()) {
      const source = `${file.name}:${n + 1}`;
      if (/^\{[\s\S]*"entries"/.test(block)) {
        const doc = JSON.parse(block) as { log?: { entries?: Array<Record<string, unknown>> } };
        for (const [i, e] of (doc.log?.entries ?? []).entries()) {
          try {
            const { request } = parseHar(JSON.stringify({ request: e.request }));
            const response = e.response as { status?: number; content?: { text?: string } } | undefined;
            const started = typeof e.startedDateTime === 'string' ? Date.parse(e.startedDateTime) : NaN;
            items.push({
              request,
              format: 'har',
              schemeKnown: true,
              headersComplete: true,
              ...(Number.isNaN(started) ? {} : { time: started }),
              ...(response?.status ? { answerStatus: response.status } : {}),
              ...(response?.content?.text ? { answerBody: response.content.text } : {}),
              source: `${file.name}#${i + 1}`,
            });
          } catch {
            skipped++;
          }
        }
        continue;
      }
      try {
        const parsed = parseCapture(block);
        const time = lineTime(block);
        const status = parsed.format === 'access-log' ? parseAccessLog(block).status : undefined;
        items.push({
          request: parsed.request,
          format: parsed.format,
          schemeKnown: parsed.schemeKnown,
          headersComplete: parsed.headersComplete,
          ...(time !== undefined ? { time } : {}),
          ...(status !== undefined ? { answerStatus: status } : {}),
          source,
        });
      } catch {
        skipped++;
      }
    }
  }
  return { items, skipped };
}
