/**
 * Hosting the demo: the two routes its host adds beside the app's files, used by the Vite dev
 * server of `npm start` (as middleware) and by `serveDemo` (the production build):
 *   GET /walletkit.config.json  the runtime settings (src/config.ts)
 *   GET /__dev/outbox           dev only: relays the server's dev outbox (same origin, no CORS)
 *   POST /__dev/faucet          dev only: {address} gets 1 test ETH on the local chain
 * and a small static server with the single-page fallback.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import type { DemoConfig } from './src/config';

export const DEV_OUTBOX_PATH = '/__dev/outbox';
export const DEV_FAUCET_PATH = '/__dev/faucet';
/** What the faucet gives: 1 test ETH. */
const FAUCET_WEI = 10n ** 18n;

export interface DemoHostOptions {
  config: Omit<DemoConfig, 'devOutboxUrl' | 'faucetUrl'>;
  /** The server's dev outbox (`<server>/v1/dev/outbox`); set in dev mode only. */
  outboxUpstream?: string;
  /** Sends test ETH on the local chain (npm start); the route exists only with it. */
  faucet?: (address: `0x${string}`, wei: bigint) => Promise<string>;
  /** Headers added to every file the static host serves (e.g. a strict Content-Security-Policy); read per request. */
  headers?: Record<string, string>;
}

/** The body of a small JSON request (the faucet's), at most 1 kB. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > 1024) throw new Error('too large');
  }
  return JSON.parse(text);
}

/**
 * Answer the host's own routes; returns false for anything else (the app's files).
 * @example if (!(await handleDemoRoute(req, res, { config }))) next();
 */
export async function handleDemoRoute(req: IncomingMessage, res: ServerResponse, opts: DemoHostOptions): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://demo.invalid');
  if (url.pathname === DEV_FAUCET_PATH && req.method === 'POST' && opts.faucet) {
    const body = (await readJson(req).catch(() => undefined)) as { address?: unknown } | undefined;
    const address = body?.address;
    res.setHeader('content-type', 'application/json');
    if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
      res.writeHead(400).end(JSON.stringify({ message: 'address must be 0x + 40 hex characters' }));
      return true;
    }
    const hash = await opts.faucet(address as `0x${string}`, FAUCET_WEI).catch(() => undefined);
    res.writeHead(hash ? 200 : 502).end(JSON.stringify(hash ? { hash } : { message: 'the local chain is not reachable' }));
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (url.pathname === '/walletkit.config.json') {
    const body: DemoConfig = {
      ...opts.config,
      ...(opts.outboxUpstream ? { devOutboxUrl: DEV_OUTBOX_PATH } : {}),
      ...(opts.faucet ? { faucetUrl: DEV_FAUCET_PATH } : {}),
    };
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
    return true;
  }
  if (url.pathname === DEV_OUTBOX_PATH && opts.outboxUpstream) {
    const upstream = await fetch(`${opts.outboxUpstream}${url.search}`).catch(() => undefined);
    res.writeHead(upstream?.status ?? 502, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(upstream ? await upstream.text() : JSON.stringify({ message: 'the walletkit server is not reachable' }));
    return true;
  }
  return false;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * Serve a production build (`apps/demo/dist`) plus the host routes on `http://localhost:port`.
 * Unknown paths without a file extension get index.html (the OAuth callback page is a route).
 * @example const host = await serveDemo({ dir: 'apps/demo/dist', port: 0, config });
 */
export async function serveDemo(
  opts: DemoHostOptions & { dir: string; port: number },
): Promise<{ url: string; port: number; server: Server; close(): Promise<void> }> {
  const root = normalize(opts.dir);
  const server = createServer((req, res) => {
    void (async () => {
      if (await handleDemoRoute(req, res, opts)) return;
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://demo.invalid').pathname);
      let file = normalize(join(root, pathname));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end();
        return;
      }
      if (!(await isFile(file))) {
        if (extname(pathname) !== '') {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        file = join(root, 'index.html');
      }
      res.writeHead(200, { ...opts.headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
