export type Route =
  | { kind: 'home' }
  | { kind: 'op'; path: string }
  | { kind: 'history' }
  | { kind: 'saved' }
  | { kind: 'keys' }
  | { kind: 'scenarios' }
  | { kind: 'return' }
  | { kind: 'debugger' }
  | { kind: 'capsule' }
  | { kind: 'teach'; path: string | null }
  | { kind: 'flows'; id: string | null }
  | { kind: 'export' }
  | { kind: 'join' }
  | { kind: 'classroom' }
  | { kind: 'trainer' }
  | { kind: 'not-found'; pathname: string };

export function parseRoute(pathname: string): Route {
  const clean = pathname.replace(/\/+$/, '') || '/';
  if (clean === '/') return { kind: 'home' };
  if (clean === '/history') return { kind: 'history' };
  if (clean === '/saved') return { kind: 'saved' };
  if (clean === '/keys') return { kind: 'keys' };
  if (clean === '/scenarios') return { kind: 'scenarios' };
  if (clean === '/return') return { kind: 'return' };
  if (clean === '/debugger') return { kind: 'debugger' };
  if (clean === '/capsule') return { kind: 'capsule' };
  if (clean === '/teach') return { kind: 'teach', path: null };
  if (clean.startsWith('/teach/')) return { kind: 'teach', path: decodeURI(clean.slice('/teach/'.length)) };
  if (clean === '/flows') return { kind: 'flows', id: null };
  if (clean.startsWith('/flows/')) return { kind: 'flows', id: decodeURI(clean.slice('/flows/'.length)) };
  if (clean === '/export') return { kind: 'export' };
  if (clean === '/join') return { kind: 'join' };
  if (clean === '/classroom') return { kind: 'classroom' };
  if (clean === '/trainer') return { kind: 'trainer' };
  if (clean.startsWith('/ops/')) return { kind: 'op', path: decodeURI(clean.slice('/ops/'.length)) };
  return { kind: 'not-found', pathname };
}

export function opHref(operationPath: string): string {
  return `/ops/${operationPath}`;
}

export function teachHref(operationPath: string): string {
  return `/teach/${operationPath}`;
}
