/**
 * Raw HTTP for the adversarial suite: exact bytes on the wire (invalid UTF-8, BOMs, duplicate
 * keys survive only this way), stamped or as a browser on the proxy, over real sockets.
 */
import { request } from 'node:http';
import { stampApiKey } from '@walletkit/crypto';
import { operations, type OperationName } from '@walletkit/protocol';
import type { SeenReply } from './tally';

export interface RawReply extends SeenReply {
  headers: Headers;
  body: any;
}

/**
 * POST exact bytes to `url` + `path`.
 * @example await sendRaw(s.url, '/public/v1/query/whoami', Buffer.from('{"a":1,"a":2}'), { 'x-stamp': stamp })
 */
export async function sendRaw(
  url: string,
  path: string,
  body: string | Uint8Array | undefined,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<RawReply> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : Buffer.from(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/**
 * A GET with exactly the given headers, Host included (fetch sets its own Host), over
 * node:http: what a DNS-rebound page or a forwarding proxy sends.
 */
export function getWithHeaders(url: string, path: string, headers: Record<string, string>): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'GET', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: h, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** POST exact bytes stamped with `key` (the stamp signs exactly these bytes). */
export function sendStamped(url: string, path: string, body: string | Uint8Array, key: { publicKey: string; privateKey: string }): Promise<RawReply> {
  return sendRaw(url, path, body, { 'x-stamp': stampApiKey(typeof body === 'string' ? body : new Uint8Array(body), key) });
}

/** The exact text of a submit envelope for `op` (timestamp now unless given). */
export function envelopeText(op: OperationName, organizationId: string, parameters: unknown, timestampMs = String(Date.now())): string {
  return JSON.stringify({ type: operations[op].type, timestampMs, organizationId, parameters });
}

/** Headers of a browser call to the proxy. */
export function proxyHeaders(configId: string, origin: string): Record<string, string> {
  return { 'x-auth-proxy-config-id': configId, origin };
}
