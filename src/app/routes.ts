export type Route =
  | { kind: 'home' }
  | { kind: 'op'; path: string }
  | { kind: 'history' }
  | { kind: 'keys' }
  | { kind: 'return' }
  | { kind: 'not-found'; pathname: string };

export function parseRoute(pathname: string): Route {
  const clean = pathname.replace(/\/+$/, '') || '/';
  if (clean === '/') return { kind: 'home' };
  if (clean === '/history') return { kind: 'history' };
  if (clean === '/keys') return { kind: 'keys' };
  if (clean === '/return') return { kind: 'return' };
  if (clean.startsWith('/ops/')) return { kind: 'op', path: decodeURI(clean.slice('/ops/'.length)) };
  return { kind: 'not-found', pathname };
}

export function opHref(operationPath: string): string {
  return `/ops/${operationPath}`;
}
