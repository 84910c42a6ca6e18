/**
 * The two peers the console is measured against, served from loopback by the bench: Swagger UI
 * (swagger-ui-dist) and Scalar API Reference (@scalar/api-reference, standalone bundle), both
 * rendering the console's own OpenAPI export. Served like the console: plain files, no
 * compression, no cache. Their network-contacting defaults are off (Swagger `validatorUrl: null`,
 * Scalar `withDefaultFonts: false`), and the bench blocks and counts any request that leaves
 * loopback anyway.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildOpenApi } from '../../src/exports/index.ts';
import { FLOOR_PATH, floorPageHtml } from './floor-page.ts';

export interface Peer {
  name: string;
  version: string;
  /** The page that shows the sale operation, relative to the peer server's origin. */
  path: string;
  /**
   * Resolves with the page's `performance.now()` when the sale operation's try-it form is on screen
   * and editable (clicking what a user would), read in the check that found it so.
   */
  waitUsable(page: Page): Promise<number>;
}

const ROOT = join(import.meta.dirname, '..', '..');

function packageDir(name: string): { dir: string; version: string } {
  // Not require.resolve: @scalar/api-reference's exports map does not list package.json.
  const pkg = join(ROOT, 'node_modules', name, 'package.json');
  return {
    dir: dirname(pkg),
    version: (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version,
  };
}

const swagger = packageDir('swagger-ui-dist');
const scalar = packageDir('@scalar/api-reference');

const SWAGGER_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Swagger UI</title>
<link rel="stylesheet" href="/swagger/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/swagger/swagger-ui-bundle.js"></script>
<script>
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    validatorUrl: null,
    deepLinking: true,
    tryItOutEnabled: true,
  });
</script></body></html>`;

const SCALAR_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Scalar API Reference</title></head>
<body><div id="app"></div>
<script src="/scalar/standalone.js"></script>
<script>
  Scalar.createApiReference('#app', {
    url: '/openapi.json',
    withDefaultFonts: false,
    telemetry: false,
  });
</script></body></html>`;

export const PEERS: readonly Peer[] = [
  {
    name: 'Swagger UI',
    version: swagger.version,
    // deepLinking opens the operation; tryItOutEnabled makes its form editable without a click.
    path: '/swagger/#/Payments/SALE',
    async waitUsable(page) {
      const at = await page.waitForFunction(
        () => {
          const op = document.querySelector('#operations-Payments-SALE.is-open');
          return (
            op?.querySelector('input[placeholder="endpointId"]:not([disabled])') != null &&
            op.querySelector('input[placeholder="client_orderid"]:not([disabled])') != null &&
            performance.now()
          );
        },
        undefined,
        { polling: 'raf', timeout: 60_000 },
      );
      return (await at.jsonValue()) as number;
    },
  },
  {
    name: 'Scalar',
    version: scalar.version,
    path: '/scalar/#tag/payments/POST/api/v2/sale/{endpointId}',
    async waitUsable(page) {
      // The try-it form is Scalar's API client, opened by the operation's "Test Request" button.
      await page
        .locator('section[id$="/tag/payments/POST/api/v2/sale/{endpointId}"] button.show-api-client-button')
        .click({ timeout: 60_000 });
      const at = await page.waitForFunction(
        () =>
          document.querySelectorAll('.scalar-client .code-input-lite__editor[contenteditable="true"]')
            .length >= 2 && performance.now(),
        undefined,
        { polling: 'raf', timeout: 60_000 },
      );
      return (await at.jsonValue()) as number;
    },
  },
];

const FILES: Record<string, { file: string; type: string }> = {
  '/swagger/swagger-ui-bundle.js': {
    file: join(swagger.dir, 'swagger-ui-bundle.js'),
    type: 'text/javascript',
  },
  '/swagger/swagger-ui.css': { file: join(swagger.dir, 'swagger-ui.css'), type: 'text/css' },
  '/scalar/standalone.js': {
    file: join(scalar.dir, 'dist/browser/standalone.js'),
    type: 'text/javascript',
  },
};

/** Serves both peers, the floor page (lib/floor-page.ts) and the OpenAPI document on a free loopback port. */
export async function startPeerServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const openapi = JSON.stringify(buildOpenApi({ serverUrl: 'http://127.0.0.1:9/paynet' }));
  const floor = floorPageHtml();
  const cache = new Map<string, Buffer>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (path === '/openapi.json') return send(200, 'application/json', openapi);
    if (path === FLOOR_PATH) return send(200, 'text/html; charset=utf-8', floor);
    if (path === '/swagger/' || path === '/swagger/index.html')
      return send(200, 'text/html; charset=utf-8', SWAGGER_HTML);
    if (path === '/scalar/' || path === '/scalar/index.html')
      return send(200, 'text/html; charset=utf-8', SCALAR_HTML);
    const f = FILES[path];
    if (!f) return send(404, 'text/plain', 'not found');
    let body = cache.get(f.file);
    if (!body) cache.set(f.file, (body = readFileSync(f.file)));
    return send(200, f.type, body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address();
  if (!addr || typeof addr !== 'object') throw new Error('The peer server did not report its port.');
  return {
    origin: `http://127.0.0.1:${addr.port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
