import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export type RawResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/**
 * A GET (or other method) that does not follow redirects and does not normalise
 * the path (fetch would resolve `..` and `//`). The path goes on the wire as given.
 */
export function get(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    // A test must fail, not hang, when an answer never comes.
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer to ${method} ${path} within 15 s`)));
    req.end();
  });
}

/** Sends raw bytes as a request and returns the raw response text (for paths node:http would refuse to send). */
export function rawRequest(base: string, requestText: string): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(requestText));
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}
