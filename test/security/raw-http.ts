import http from 'node:http';

export interface RawReply {
  status: number;
  /** The error code of a JSON error answer (`error.code` or the gateway's `error-code`). */
  code: string | undefined;
  text: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

export function closeRawAgent(): void {
  agent.destroy();
}

/**
 * Sends `rawPath` to 127.0.0.1:`port` exactly as written: no URL parsing on the way, so a
 * percent-encoding, "//" or "/./" reaches the server as the test spelled it.
 */
export function sendRaw(
  port: number,
  method: string,
  rawPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: rawPath, headers, agent }, (res) => {
      // Event streams stay open: their status is what matters here.
      if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        res.destroy();
        return resolve({ status: res.statusCode ?? 0, code: undefined, text: '' });
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let code: string | undefined;
        try {
          const j = JSON.parse(text) as { error?: { code?: string }; 'error-reason'?: string };
          code = j.error?.code ?? j['error-reason'];
        } catch {
          code = undefined;
        }
        resolve({ status: res.statusCode ?? 0, code, text });
      });
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${rawPath}: no answer in 20 s`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
