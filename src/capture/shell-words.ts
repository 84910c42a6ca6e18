import { PayError } from '../core/errors.ts';

/**
 * Splits a POSIX-shell command line into words the way bash would before running it, for the
 * parts a pasted curl command uses: whitespace between words, `'…'` (literal), `"…"` (with `\"`,
 * `\\`, `\$`, `` \` `` escapes), `$'…'` (ANSI-C escapes such as `\n`, `\x41`, `\u00e9`, `\'`),
 * a backslash outside quotes (escapes the next character), backslash-newline (a continuation,
 * removed everywhere but inside single quotes) and `#` comments at the start of a word.
 * Variables (`$KEY`) are not expanded: they stay as written.
 * @throws PayError HTTP_PARSE for an unterminated quote.
 */
export function splitShellWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const n = text.length;
  const unterminated = (kind: string, at: number): never => {
    throw new PayError(
      'HTTP_PARSE',
      `The command has an unterminated ${kind} quote (opened near "${text.slice(Math.max(0, at - 10), at + 20)}"): copy the whole command again.`,
    );
  };
  while (i < n) {
    const c = text[i]!;
    if (c === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      i += text[i + 1] === '\r' ? 3 : 2;
      continue;
    }
    if (/\s/.test(c)) {
      if (inWord) {
        words.push(word);
        word = '';
        inWord = false;
      }
      i++;
      continue;
    }
    if (c === '#' && !inWord) {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) unterminated('single', i);
      word += text.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '$' && text[i + 1] === "'") {
      const start = i;
      i += 2;
      let closed = false;
      // \xHH and octal escapes are bytes: a run of them is decoded as UTF-8 (é = \xc3\xa9).
      let bytes: number[] = [];
      const flush = () => {
        if (bytes.length > 0) word += new TextDecoder().decode(new Uint8Array(bytes));
        bytes = [];
      };
      while (i < n) {
        const d = text[i]!;
        if (d === "'") {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && i + 1 < n) {
          const { value, length, byte } = ansiEscape(text, i + 1);
          if (byte !== undefined) bytes.push(byte);
          else {
            flush();
            word += value;
          }
          i += 1 + length;
          continue;
        }
        flush();
        word += d;
        i++;
      }
      flush();
      if (!closed) unterminated("$'…'", start);
      continue;
    }
    if (c === '"') {
      const start = i;
      i++;
      let closed = false;
      while (i < n) {
        const d = text[i]!;
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && i + 1 < n) {
          const e = text[i + 1]!;
          if (e === '\n') {
            i += 2;
            continue;
          }
          if (e === '\r' && text[i + 2] === '\n') {
            i += 3;
            continue;
          }
          if (e === '"' || e === '\\' || e === '$' || e === '`') {
            word += e;
            i += 2;
            continue;
          }
        }
        word += d;
        i++;
      }
      if (!closed) unterminated('double', start);
      continue;
    }
    if (c === '\\' && i + 1 < n) {
      word += text[i + 1];
      i += 2;
      continue;
    }
    word += c;
    i++;
  }
  if (inWord) words.push(word);
  return words;
}

/** One ANSI-C escape of a `$'…'` word, starting after the backslash. */
function ansiEscape(text: string, at: number): { value: string; length: number; byte?: number } {
  const e = text[at]!;
  const simple: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '?': '?',
  };
  if (e in simple) return { value: simple[e]!, length: 1 };
  const hex = (re: RegExp, skip: number) => {
    const m = re.exec(text.slice(at + skip));
    return m ? { value: String.fromCodePoint(parseInt(m[0], 16)), length: skip + m[0].length } : undefined;
  };
  if (e === 'x') {
    const m = /^[0-9a-fA-F]{1,2}/.exec(text.slice(at + 1));
    return m ? { value: '', length: 1 + m[0].length, byte: parseInt(m[0], 16) } : { value: '\\x', length: 1 };
  }
  if (e === 'u') return hex(/^[0-9a-fA-F]{1,4}/, 1) ?? { value: '\\u', length: 1 };
  if (e === 'U') return hex(/^[0-9a-fA-F]{1,8}/, 1) ?? { value: '\\U', length: 1 };
  const oct = /^[0-7]{1,3}/.exec(text.slice(at));
  if (oct) return { value: '', length: oct[0].length, byte: parseInt(oct[0], 8) & 0xff };
  return { value: `\\${e}`, length: 1 };
}
