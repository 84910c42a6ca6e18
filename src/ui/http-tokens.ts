/**
 * The raw-HTTP colouring of the Monaco view (monaco-view.tsx registers the same rules as a
 * Monarch tokenizer), as plain spans: the live pane shows it without loading Monaco.
 */
export type HttpTokenKind = 'keyword' | 'header' | 'escape' | 'delimiter' | 'name';
export interface HttpToken {
  text: string;
  kind: HttpTokenKind | null;
}

// Sticky (`y`): each rule is tried at the current position only, as Monarch does.
const METHOD = /(?:POST|GET|PUT|DELETE|PATCH|HEAD|OPTIONS)\b/y;
const HEADER_NAME = /[A-Za-z0-9-]+(?=:)/y;
const RULES: ReadonlyArray<readonly [RegExp, HttpTokenKind]> = [
  [/HTTP\/\d(?:\.\d)?/y, 'keyword'],
  [/%[0-9A-Fa-f]{2}/y, 'escape'],
  [/[&=]/y, 'delimiter'],
  [/[^&=%\s]+(?==)/y, 'name'],
];

function matchAt(re: RegExp, line: string, at: number): string | null {
  re.lastIndex = at;
  const m = re.exec(line);
  return m && m[0].length > 0 ? m[0] : null;
}

/** Splits one line into coloured tokens; joined, the tokens' text is the line, unchanged. */
export function tokenizeHttpLine(line: string): HttpToken[] {
  const out: HttpToken[] = [];
  let plainFrom = 0;
  let at = 0;
  const push = (text: string, kind: HttpTokenKind) => {
    if (plainFrom < at) out.push({ text: line.slice(plainFrom, at), kind: null });
    out.push({ text, kind });
    at += text.length;
    plainFrom = at;
  };
  // A method or a header name can only open the line (`^` in the Monarch rules).
  const method = matchAt(METHOD, line, 0);
  const header = method ? null : matchAt(HEADER_NAME, line, 0);
  if (method) push(method, 'keyword');
  else if (header) push(header, 'header');
  while (at < line.length) {
    let matched = false;
    for (const [re, kind] of RULES) {
      const m = matchAt(re, line, at);
      if (m) {
        push(m, kind);
        matched = true;
        break;
      }
    }
    if (!matched) at += 1;
  }
  if (plainFrom < line.length) out.push({ text: line.slice(plainFrom), kind: null });
  return out;
}
