/**
 * The ceiling: a minimal fastify app that reads a POST body as bytes (as the sandbox does) and
 * answers a tiny JSON. Run in its own process; prints `listening <port>`.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
app.post('/tiny', async (_request, reply) =>
  reply.header('content-type', 'application/json').send('{"type":"ok"}'),
);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
