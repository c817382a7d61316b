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
 *   POST /otp/init, /otp/verify, /otp/login   an email OTP login's three requests with the
 *               server's own crypto (enclave/signer-core.ts, @walletkit/crypto) and nothing else:
 *               init makes the code, its MAC and its target key pair, seals the target's private
 *               key to the at-rest key and signs the target bundle; verify opens the sealed key
 *               and the client's attempt, checks the code and signs a verification token; login
 *               verifies the token and the client signature and signs a session. Codes and spent
 *               tokens live in memory (no database, no delivery: init's reply carries the code).
 *               POST /otp/key answers the key bundles and tokens are signed with.
 *
 * A bad stamp is a 401, anything else wrong a 400, so a load run shows it as non-2xx.
 * Prints `LISTENING http://127.0.0.1:<port>` when ready. CEILING_WORKERS=N runs N processes on
 * one port (node:cluster, like `walletkit-server start --workers N`).
 */
import cluster from 'node:cluster';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateP256KeyPair, parseApiKeyStamp, signJwt, signRawPayload, verifyApiKeyStamp, verifyClientSignature, verifyJwt } from '@walletkit/crypto';
import { AtRestKey } from '../../packages/server/src/enclave/at-rest.js';
import { checkAttempt, issueCode, type SealedValue } from '../../packages/server/src/enclave/signer-core.js';
import { installNativeCrypto, keepOwnSigningKey } from '../../packages/server/src/native-crypto.js';
import { verifyP256 } from '../lib/client-crypto.js';

// The server's crypto, installed as the server installs it (the signature on libsecp256k1).
installNativeCrypto();

// The "wallet account" key: any secp256k1 scalar (the ceiling opens no sealed key).
const accountKey = randomBytes(32);
accountKey[0] = 0x01;

// The enclave's two keys, as the server holds them: one seals at rest, one signs.
const atRestKey = generateP256KeyPair();
const atRest = await AtRestKey.of(atRestKey.privateKey);
const signingKey = generateP256KeyPair();
/** What the server's signer threads hold: the at-rest key and the enclave's signing key. */
const keys = { atRest, own: { privateKey: signingKey.privateKey, publicKey: signingKey.publicKeyUncompressed, keyId: signingKey.publicKey.slice(2, 18) } };
keepOwnSigningKey(Buffer.from(signingKey.privateKey, 'hex'));

/** The codes issued and not yet used, and the verification tokens spent (in memory: no database). */
const codes = new Map<string, { codeMac: string; sealedTargetKey: SealedValue }>();
const spentTokens = new Set<string>();

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
  if (req.url?.startsWith('/otp/')) {
    otp(req.url, raw, res).catch(() => reply(res, 500, { message: 'ceiling failed' }));
    return;
  }
  reply(res, 404, { message: 'not found' });
}

/** One request of an email OTP login (see the module comment); a wrong code or token is a 400. */
async function otp(route: string, raw: Buffer, res: ServerResponse): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: the ceiling reads what each route needs and fails with a 400 otherwise
  let body: any;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    reply(res, 400, { message: 'malformed JSON' });
    return;
  }
  if (route === '/otp/key') {
    reply(res, 200, { signingPublicKey: signingKey.publicKeyUncompressed });
  } else if (route === '/otp/init') {
    if (typeof body.contact !== 'string') return reply(res, 400, { message: 'no contact' });
    const otpId = randomUUID();
    // The code, its sealed target and its signed bundle, as the server's signer thread makes them.
    const issued = await issueCode(keys, { otpId, organizationId: body.contact, length: 6, alphanumeric: false });
    codes.set(otpId, { codeMac: issued.codeMac, sealedTargetKey: issued.sealedTargetKey });
    reply(res, 200, { otpId, otpEncryptionTargetBundle: issued.otpEncryptionTargetBundle, code: issued.code });
  } else if (route === '/otp/verify') {
    const issued = codes.get(body.otpId);
    const encrypted = typeof body.encryptedOtpBundle === 'string' ? JSON.parse(body.encryptedOtpBundle) : undefined;
    if (!issued || !encrypted) return reply(res, 400, { message: 'no such code' });
    // The attempt opened and, when right, its verification token signed: one job, as on the server's signer thread.
    const exp = Math.floor(Date.now() / 1000) + 600;
    const token = { id: randomUUID(), verification_type: 'OTP_TYPE_EMAIL', contact: 'c', organization_id: 'o', exp };
    const opened = await checkAttempt(keys, { otpId: body.otpId, ...issued, encrypted, token });
    if (!opened?.verificationToken) return reply(res, 400, { message: 'wrong code' });
    codes.delete(body.otpId);
    reply(res, 200, { verificationToken: opened.verificationToken });
  } else if (route === '/otp/login') {
    let claims: { id: string; public_key: string; organization_id: string };
    try {
      claims = verifyJwt(body.verificationToken, signingKey.publicKeyUncompressed);
    } catch {
      return reply(res, 400, { message: 'bad token' });
    }
    const signature = body.clientSignature;
    const message = JSON.stringify({ type: 'USAGE_TYPE_LOGIN', tokenId: claims.id });
    if (spentTokens.has(claims.id) || signature?.message !== message || signature.publicKey !== claims.public_key || !verifyClientSignature(signature))
      return reply(res, 400, { message: 'bad client signature' });
    spentTokens.add(claims.id);
    const exp = Math.floor(Date.now() / 1000) + 900;
    const session = signJwt(
      { exp, public_key: body.publicKey, session_type: 'SESSION_TYPE_READ_WRITE', user_id: 'u', organization_id: claims.organization_id },
      signingKey.privateKey,
      { kid: signingKey.publicKey.slice(2, 18) },
    );
    reply(res, 200, { session });
  } else reply(res, 404, { message: 'not found' });
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
