/**
 * A real local OAuth 2.0 authorization server for tests (fastify on 127.0.0.1, port 0):
 * `/token` implements the authorization-code grant with client authentication by HTTP Basic
 * (RFC 6749 sections 2.3.1, 4.1.3) and PKCE S256 (RFC 7636 section 4.6); `/userinfo` answers a
 * bearer token (RFC 6750) in Discord's or X's shape. Codes are issued by `authorize()`, which
 * stands in for the user's consent, or in a real browser by `/authorize` (section 4.1.1): a
 * consent form where the user types a username, then the redirect back with code and state.
 */
import { createHash, randomBytes } from 'node:crypto';
import Fastify from 'fastify';

export interface ProviderUser {
  id: string;
  username: string;
  email?: string;
}

export interface OAuth2ProviderOptions {
  clientId: string;
  clientSecret: string;
  /** Reply shape of /userinfo: Discord `{id, username, email, verified}` or X `{data: {id, username}}`. */
  shape?: 'discord' | 'x';
  /** Awaited by /token before it answers (a slow provider, released by the test). */
  tokenGate?: () => Promise<void>;
}

export interface LocalOAuth2Provider {
  /** Base URL, also used as the provider's issuer. */
  url: string;
  tokenUrl: string;
  userInfoUrl: string;
  /** The user consents: returns an authorization code bound to the redirect URI and PKCE challenge. */
  authorize(input: { user: ProviderUser; redirectUri: string; codeChallenge: string }): string;
  /** Token requests seen, for asserting what the server sent (never the secret in clear text). */
  readonly tokenRequests: Array<{ authorization: string | undefined; body: Record<string, string> }>;
  close(): Promise<void>;
}

/** RFC 7636 section 4.2: S256 code challenge of a verifier. */
export function codeChallengeOf(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** A fresh PKCE verifier (43 characters). */
export function newCodeVerifier(): string {
  return randomBytes(32).toString('base64url');
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** application/x-www-form-urlencoded decoding of one Basic credential half (RFC 6749 section 2.3.1). */
const formDecode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));

export async function startOAuth2Provider(opts: OAuth2ProviderOptions): Promise<LocalOAuth2Provider> {
  const app = Fastify({ logger: false });
  const codes = new Map<string, { user: ProviderUser; redirectUri: string; codeChallenge: string }>();
  const tokens = new Map<string, ProviderUser>();
  const tokenRequests: LocalOAuth2Provider['tokenRequests'] = [];

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post('/token', async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, string>;
    tokenRequests.push({ authorization: req.headers.authorization, body });
    await opts.tokenGate?.();
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [id, secret] = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':').map(formDecode) : [];
    if (id !== opts.clientId || secret !== opts.clientSecret || body.client_id !== opts.clientId) {
      return reply.code(401).send({ error: 'invalid_client' });
    }
    if (body.grant_type !== 'authorization_code') return reply.code(400).send({ error: 'unsupported_grant_type' });
    const grant = body.code === undefined ? undefined : codes.get(body.code);
    if (body.code !== undefined) codes.delete(body.code); // single use, even when the rest is wrong
    if (!grant || grant.redirectUri !== body.redirect_uri || !body.code_verifier || codeChallengeOf(body.code_verifier) !== grant.codeChallenge) {
      return reply.code(400).send({ error: 'invalid_grant' });
    }
    const accessToken = randomBytes(24).toString('base64url');
    tokens.set(accessToken, grant.user);
    return { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: 'identify email' };
  });

  // The browser side of the grant: the consent page, then the redirect with the code.
  app.get('/authorize', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    if (q.client_id !== opts.clientId || q.response_type !== 'code' || !q.redirect_uri || q.code_challenge_method !== 'S256' || !q.code_challenge) {
      return reply.code(400).type('text/plain').send('invalid_request');
    }
    const hidden = ['redirect_uri', 'state', 'code_challenge'].map((k) => `<input type="hidden" name="${k}" value="${escapeAttr(q[k] ?? '')}">`).join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize - local ${opts.shape ?? 'discord'}</title></head>
<body><main><h1>Authorize walletkit</h1><form method="post" action="/authorize">${hidden}
<label for="username">Username</label> <input id="username" name="username" required>
<button type="submit">Authorize</button></form></main></body></html>`);
  });
  app.post('/authorize', async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, string>;
    const username = body.username?.trim() ?? '';
    if (username === '' || !body.redirect_uri || !body.code_challenge) return reply.code(400).type('text/plain').send('invalid_request');
    const user: ProviderUser = { id: `u-${createHash('sha256').update(username).digest('hex').slice(0, 16)}`, username };
    const code = randomBytes(16).toString('base64url');
    codes.set(code, { user, redirectUri: body.redirect_uri, codeChallenge: body.code_challenge });
    const target = new URL(body.redirect_uri);
    target.searchParams.set('code', code);
    if (body.state) target.searchParams.set('state', body.state);
    return reply.redirect(target.toString(), 303);
  });

  app.get('/userinfo', async (req, reply) => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const user = bearer ? tokens.get(bearer[1]!) : undefined;
    if (!user) return reply.code(401).send({ error: 'invalid_token' });
    if (opts.shape === 'x') return { data: { id: user.id, name: user.username, username: user.username } };
    return { id: user.id, username: user.username, ...(user.email ? { email: user.email, verified: true } : {}) };
  });

  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    tokenUrl: `${url}/token`,
    userInfoUrl: `${url}/userinfo`,
    tokenRequests,
    authorize({ user, redirectUri, codeChallenge }) {
      const code = randomBytes(16).toString('base64url');
      codes.set(code, { user, redirectUri, codeChallenge });
      return code;
    },
    close: () => app.close(),
  };
}
