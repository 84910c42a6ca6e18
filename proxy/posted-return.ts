import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBody } from './upstream-errors.ts';

/** The console page the gateway posts the customer back to (the test data's `redirect_url`). */
export const RETURN_PATH = '/return';

/** The meta element that carries a POSTed return into the page (read by src/app/customer-return.ts). */
export const POSTED_RETURN_META = 'pay-console-posted-return';

/** A return is a few signed fields; a 3-D Secure PaRes or CRes is the largest (a few kB of base64). */
const MAX_RETURN_BYTES = 64 * 1024;

/** What a POSTed return may hold: a few named text fields, nothing else. */
const PostedReturn = z.array(z.tuple([z.string().min(1).max(64), z.string().max(20_000)])).max(32);

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * index.html with a POSTed return in it: the fields, form-encoded, as the `content` of a meta
 * element the page reads instead of its query. Data only: the page's scripts are unchanged, and an
 * attribute value (escaped) cannot become markup or script.
 */
export function indexWithPostedReturn(
  indexHtml: string,
  fields: ReadonlyArray<readonly [string, string]>,
): string {
  const encoded = new URLSearchParams(fields.map(([k, v]) => [k, v])).toString();
  return indexHtml.replace(
    '<head>',
    `<head>\n    <meta name="${POSTED_RETURN_META}" content="${escapeAttribute(encoded)}" />`,
  );
}

/**
 * `POST /return`: the customer's browser comes back from the gateway's (or the sandbox's) page by a
 * POSTed form, as the gateway sends it (gateway-notes.md). The route only renders the console's
 * return page with the posted fields: it changes no state, forwards nothing, sets no cookie, and
 * reads no credential, so a cross-site POST, which this is by design, can do no more than a link
 * to `/return?…` already could. See docs/security.md ("customer-return").
 */
export function registerPostedReturn(
  app: FastifyInstance,
  indexHtml: () => Promise<string | undefined>,
): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: MAX_RETURN_BYTES },
      (_request, body, done) => done(null, body),
    );
    // The route's own limit too: a 413 names the limit that refused it (proxy/server.ts).
    const route = { bodyLimit: MAX_RETURN_BYTES, config: { access: 'customer-return' as const } };
    scope.post(RETURN_PATH, route, async (request, reply) => {
      const refuse = (message: string) =>
        reply
          .code(400)
          .type('application/json; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(errorBody('RETURN_INVALID', message));
      if (typeof request.body !== 'string')
        return refuse('Post the return as application/x-www-form-urlencoded fields.');
      let pairs: Array<[string, string]>;
      try {
        pairs = [...new URLSearchParams(request.body)];
      } catch {
        return refuse('The posted fields cannot be read.');
      }
      const fields = PostedReturn.safeParse(pairs);
      if (!fields.success)
        return refuse(
          'A return has at most 32 named fields, names up to 64 and values up to 20,000 characters.',
        );
      const html = await indexHtml();
      if (html === undefined)
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The console is not built yet: run npm run build.');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(indexWithPostedReturn(html, fields.data));
    });
  });
}
