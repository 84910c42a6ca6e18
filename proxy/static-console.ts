import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ViteDevServer } from 'vite';
import { registerPostedReturn, RETURN_PATH } from './posted-return.ts';
import { consoleHeaders, DEV_CSP } from './security-headers.ts';
import { errorBody } from './upstream-errors.ts';

/** Path prefixes that belong to the server, never to the console's pages. */
export const API_PREFIXES = ['proxy', 'sandbox', 'callbacks'] as const;

/**
 * `path` is the router's decoded wildcard: the path without its leading "/". `/classroom` is the
 * trainee's page; what is under it is the classroom's API.
 */
function isApiPath(path: string): boolean {
  return path.startsWith('classroom/') || API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

/** A missing file (the last segment has an extension) gets a 404, not the page: see stack-notes G12. */
function looksLikeFile(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return /\.[A-Za-z0-9]{1,8}$/.test(last) && !last.endsWith('.html');
}

/** Every console page and file: one route, decided on the path the router decoded. */
const PAGE_ROUTE = { config: { access: 'page' } } as const;

type PageRequest = FastifyRequest<{ Params: { '*': string } }>;

/**
 * The classroom's index.html: marked, so the page knows its mode before it asks the server anything,
 * and without the demo merchant's preload (closed in classroom mode: it would only log a 403).
 */
export function classroomIndexHtml(html: string): string {
  return html
    .replace(/^\s*<link rel="preload" href="\/sandbox\/demo-merchant"[^>]*>\n?/m, '')
    .replace('<head>', '<head>\n    <meta name="pay-console-mode" content="classroom" />');
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pay-console is not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>The console is not built yet</h1>
<p>The server is running (the proxy under <code>/proxy/</code>, the sandbox under <code>/sandbox/</code>),
but the directory with the built console pages was not found.</p>
<p>Run <code>npm run build</code> and reload this page, or start with <code>npm start</code>, which builds first.
For development with hot reload, use <code>npm run dev</code>.</p>
</body></html>
`;

function notFoundJson(reply: FastifyReply, request: FastifyRequest) {
  return reply
    .code(404)
    .type('application/json; charset=utf-8')
    .send(
      errorBody('NOT_FOUND', `Nothing is at ${request.method} ${request.url.split('?')[0]?.slice(0, 200)}.`),
    );
}

/**
 * Serves the built console from `distDir` with a single-page fallback: any GET that is not an API
 * path or an existing file answers index.html, so /ops/v2/sale opens the console on that page.
 * Without a build, a page says to run `npm run build`.
 */
export async function registerStaticConsole(
  app: FastifyInstance,
  distDir: string,
  mode: 'console' | 'classroom',
): Promise<void> {
  const built = existsSync(join(distDir, 'index.html'));
  // The files as the build left them, listed once: a request names one of these or gets the page.
  const files = new Set(
    built
      ? readdirSync(distDir, { recursive: true, encoding: 'utf8' })
          .filter((f) => statSync(join(distDir, f)).isFile())
          .map((f) => f.split(sep).join('/'))
      : [],
  );
  const classroomIndex =
    built && mode === 'classroom'
      ? classroomIndexHtml(readFileSync(join(distDir, 'index.html'), 'utf8'))
      : undefined;
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      serve: false,
      setHeaders: (reply, path) => {
        reply.header(
          'cache-control',
          /[/\\]assets[/\\]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  const indexHtml = built ? (classroomIndex ?? readFileSync(join(distDir, 'index.html'), 'utf8')) : undefined;
  registerPostedReturn(app, async () => indexHtml);
  app.get('/*', PAGE_ROUTE, async (request: PageRequest, reply) => {
    const path = request.params['*'];
    if (files.has(path) && path !== 'index.html') return reply.sendFile(path);
    // Pages without an icon link (the sandbox's issuer and hosted forms) make browsers ask for this.
    if (path === 'favicon.ico') return reply.code(204).header('cache-control', 'max-age=86400').send();
    if (isApiPath(path) || looksLikeFile(path)) return notFoundJson(reply, request);
    if (!built)
      return reply
        .code(503)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(NOT_BUILT_PAGE);
    if (classroomIndex !== undefined)
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(classroomIndex);
    // An operation page pre-rendered at build time (scripts/prerender-ops.ts): its form is in the HTML.
    const prerendered = `${path.replace(/\/+$/, '')}.html`;
    if (path.startsWith('ops/') && files.has(prerendered))
      return reply.header('cache-control', 'no-cache').sendFile(prerendered);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
  app.setNotFoundHandler(async (request, reply) => notFoundJson(reply, request));
}

/**
 * `npm run dev`: Vite's dev server in middleware mode answers every console page and module
 * (with hot reload over a WebSocket on the same port); the API routes stay fastify's.
 */
export function registerViteConsole(app: FastifyInstance, vite: ViteDevServer): void {
  registerPostedReturn(app, async () =>
    vite.transformIndexHtml(RETURN_PATH, readFileSync(join(vite.config.root, 'index.html'), 'utf8')),
  );
  app.get('/*', PAGE_ROUTE, async (request: PageRequest, reply) => {
    if (isApiPath(request.params['*'])) return notFoundJson(reply, request);
    reply.hijack();
    const res = reply.raw;
    for (const [name, value] of Object.entries(consoleHeaders(DEV_CSP))) res.setHeader(name, value);
    vite.middlewares(request.raw, res, () => {
      if (!res.headersSent) {
        res.statusCode = 404;
        res.setHeader('content-type', 'application/json; charset=utf-8');
      }
      res.end(
        JSON.stringify(errorBody('NOT_FOUND', `Nothing is at ${request.url.split('?')[0]?.slice(0, 200)}.`)),
      );
    });
    return reply;
  });
  app.setNotFoundHandler(async (request, reply) => notFoundJson(reply, request));
}
