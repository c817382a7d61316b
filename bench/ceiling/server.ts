/**
 * The ceiling: a plain node:http server (no Fastify, no database, no enclave) doing only the
 * irreducible work of a request, so that a figure of the walletkit server can be read as a
 * fraction of what one Node process on this machine can do at all.
 *
 *   POST /sign  a stamped sign_raw_payloads or sign_transaction body: read the raw bytes, parse
 *               the X-Stamp header (@walletkit/crypto's parser, as the server does), verify the
 *               P-256 stamp over the raw body with node:crypto, parse the JSON, keccak-256 of
 *               the payload (the UTF-8 text, or the unsigned transaction's bytes), one
 *               secp256k1 signature with recovery (@walletkit/crypto's signRawPayload, the
 *               server's own code, on the server's libsecp256k1), JSON reply {r, s, v}.
 *   POST /read  a stamped read body: parse and verify the stamp, parse the JSON, reply.
 *
 * A bad stamp is a 401, anything else wrong a 400, so a load run shows it as non-2xx.
 * Prints `LISTENING http://127.0.0.1:<port>` when ready. CEILING_WORKERS=N runs N processes on
 * one port (node:cluster, like `walletkit-server start --workers N`).
 */
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseApiKeyStamp, signRawPayload, verifyApiKeyStamp } from '@walletkit/crypto';
import { installNativeCrypto } from '../../packages/server/src/native-crypto.js';
import { verifyP256 } from '../lib/client-crypto.js';

// The server's crypto, installed as the server installs it (the signature on libsecp256k1).
installNativeCrypto();

// The "wallet account" key: any secp256k1 scalar (the ceiling opens no sealed key).
const accountKey = randomBytes(32);
accountKey[0] = 0x01;

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** What the ceiling reads of a body. */
interface Body {
  organizationId?: string;
  parameters?: { unsignedTransaction?: unknown; payloads?: unknown[] };
}

/** The request's JSON after its stamp verified, or undefined when a reply was sent. */
function verified(req: IncomingMessage, raw: Buffer, res: ServerResponse): Body | undefined {
  const header = req.headers['x-stamp'];
  let ok = false;
  try {
    ok = typeof header === 'string' && verifyApiKeyStamp(raw, parseApiKeyStamp(header), { verifyP256 });
  } catch {
    ok = false;
  }
  if (!ok) {
    reply(res, 401, { code: 16, message: 'stamp invalid' });
    return undefined;
  }
  try {
    return JSON.parse(raw.toString('utf8')) as Body;
  } catch {
    reply(res, 400, { code: 3, message: 'malformed JSON' });
    return undefined;
  }
}

function serve(): void {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    if (cluster.isWorker) process.send?.({ listening: port });
    else process.stdout.write(`LISTENING http://127.0.0.1:${port}\n`);
  });
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
  if (req.method !== 'POST') {
    reply(res, 404, { message: 'not found' });
    return;
  }
  if (req.url === '/read') {
    const body = verified(req, raw, res);
    if (body) reply(res, 200, { organizationId: body.organizationId, ok: true });
    return;
  }
  if (req.url === '/sign') {
    const body = verified(req, raw, res);
    if (!body) return;
    const params = body.parameters ?? {};
    const tx = typeof params.unsignedTransaction === 'string' ? (params.unsignedTransaction as string) : undefined;
    const payload = tx ?? params.payloads?.[0];
    if (typeof payload !== 'string') {
      reply(res, 400, { message: 'no payload' });
      return;
    }
    const signature = signRawPayload({
      curve: 'CURVE_SECP256K1',
      privateKey: accountKey,
      payload: tx ? (tx.startsWith('0x') ? tx : `0x${tx}`) : payload,
      encoding: tx ? 'PAYLOAD_ENCODING_HEXADECIMAL' : 'PAYLOAD_ENCODING_TEXT_UTF8',
      hashFunction: 'HASH_FUNCTION_KECCAK256',
    });
    reply(res, 200, { signature });
    return;
  }
  reply(res, 404, { message: 'not found' });
}

// CEILING_WORKERS=N (N > 1): N processes on one port with node:cluster, as `walletkit-server
// start --workers N` runs (the one-process against two figure's own ceiling).
const workers = Number(process.env.CEILING_WORKERS ?? 1);
if (workers > 1 && cluster.isPrimary) {
  let ready = 0;
  for (let i = 0; i < workers; i++) {
    const worker = cluster.fork();
    worker.on('message', (m: { listening?: number }) => {
      if (m.listening !== undefined && ++ready === workers) process.stdout.write(`LISTENING http://127.0.0.1:${m.listening}\n`);
    });
  }
  process.once('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    process.exit(0);
  });
} else {
  serve();
}
