/**
 * The secret frames (issue 12, SECURITY.md "The frame boundary"): the pages the kit embeds in
 * an iframe on the frames origin (this server's origin by default) so that an exported phrase
 * or key is decrypted and shown, and an imported one typed and encrypted, outside the app's
 * document.
 *
 *   GET /frames/export?configId=ID   the export page (target key, decrypt, show, copy)
 *   GET /frames/import?configId=ID   the import page (type, verify the import bundle, encrypt)
 *   GET /frames/frame.js             their script (packages/client/src/frame/secret-frame.ts, bundled)
 *   GET /frames/frame.css            their style
 *
 * Every page carries a strict CSP: `default-src 'none'`, the script and style from this origin
 * only, no connections, and `frame-ancestors` = the organization's allowed origins (the same list
 * the page's script checks postMessage origins against). The pinned enclave key is written
 * into the page by the server, not taken from the embedding app.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors.js';
import type { Enclave } from '../enclave/index.js';
import { loadProxyConfig } from '../store/proxy-configs.js';
import type { Store } from '../store/db.js';

export interface FramesPluginOptions {
  store: Store;
  enclave: Enclave;
}

/** The bundled script, next to this module in dist/ (scripts/build.mjs writes it). */
const BUILT_SCRIPT = fileURLToPath(new URL('./frame.js', import.meta.url));
/** The source the monorepo bundles on first request when it runs from src/ (no build step). */
const SOURCE_ENTRY = fileURLToPath(new URL('../../../client/src/frame/secret-frame.ts', import.meta.url));

let script: Promise<string> | undefined;

/** The frame script: the built file, or (running from source) an esbuild bundle of the entry. */
export function frameScript(): Promise<string> {
  script ??= (async () => {
    if (existsSync(BUILT_SCRIPT)) return readFileSync(BUILT_SCRIPT, 'utf8');
    if (!existsSync(SOURCE_ENTRY)) throw new Error(`the frame script is missing (${BUILT_SCRIPT})`);
    const { bundleFrameScript } = await import('./bundle.js');
    return bundleFrameScript(SOURCE_ENTRY, ['@walletkit/source']);
  })();
  return script;
}

const CSS = `:root{color-scheme:light dark;font-family:system-ui,sans-serif;font-size:15px}
body{margin:0;padding:12px;background:transparent}
.secret{display:block;font-family:ui-monospace,monospace;word-break:break-word;padding:10px;border-radius:8px;border:1px solid #8886;margin:8px 0;user-select:all}
.hint{margin:0 0 8px;opacity:.85}.error{color:#c62828;margin:8px 0}
button{font:inherit;padding:6px 14px;border-radius:8px;border:1px solid #8888;cursor:pointer}
form{display:grid;gap:8px}textarea{font:inherit;font-family:ui-monospace,monospace;width:100%;box-sizing:border-box}`;

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function securityHeaders(reply: FastifyReply, frameAncestors: string): FastifyReply {
  return reply
    .header(
      'content-security-policy',
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors ${frameAncestors}`,
    )
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store');
}

export async function framesPlugin(app: FastifyInstance, opts: FramesPluginOptions): Promise<void> {
  for (const mode of ['export', 'import'] as const) {
    app.get<{ Querystring: { configId?: string } }>(`/${mode}`, async (req, reply) => {
      const configId = typeof req.query.configId === 'string' ? req.query.configId.trim() : '';
      if (!configId || configId.length > 128) throw new ApiError('ERR_CONFIG_ID_MISSING');
      const config = await loadProxyConfig(opts.store.db, configId);
      if (!config?.enabled) throw new ApiError('ERR_CONFIG_NOT_FOUND');
      const origins = config.settings.allowedOrigins.map((o) => (o.endsWith('/') ? o.slice(0, -1) : o));
      const ancestors = origins.includes('*') ? '*' : origins.join(' ') || "'none'";
      const html = `<!doctype html>
<html lang="en" data-mode="${mode}" data-enclave-public-key="${escapeAttr(opts.enclave.signingPublicKey)}" data-parent-origins="${escapeAttr(origins.join(' '))}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>walletkit ${mode}</title><link rel="stylesheet" href="./frame.css"></head>
<body><main id="frame"><p class="hint" role="status">Loading…</p></main><script type="module" src="./frame.js"></script></body>
</html>
`;
      return securityHeaders(reply, ancestors).type('text/html; charset=utf-8').send(html);
    });
  }
  app.get('/frame.js', async (_req, reply) => {
    const body = await frameScript();
    return reply.header('x-content-type-options', 'nosniff').header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(body);
  });
  app.get('/frame.css', async (_req, reply) => reply.header('x-content-type-options', 'nosniff').type('text/css; charset=utf-8').send(CSS));
}
