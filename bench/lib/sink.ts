/**
 * The email webhook the server under test posts one-time codes to (EMAIL_WEBHOOK_URL): a
 * loopback node:http server in the bench process that keeps each recipient's latest code in
 * memory and hands it to the simulated user waiting for it, whichever arrives first.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The code in a delivered text: the first 6-9 character token of digits/uppercase letters (as test/support/otp.ts reads it). */
export function codeIn(text: string): string {
  const match = /(?:^|\s)([0-9A-Z]{6,9})(?=\s|$)/m.exec(text);
  if (!match) throw new Error(`no code in the delivered text: ${text.slice(0, 120)}`);
  return match[1]!;
}

export interface CodeSink {
  /** EMAIL_WEBHOOK_URL for the server. */
  url: string;
  /** Messages received so far. */
  received(): number;
  /** The code sent to `to` (lowercased by the server), once it arrives. */
  codeFor(to: string, timeoutMs?: number): Promise<string>;
  /** Drop a code held for `to` that nobody claimed (an earlier login of the account that failed), before asking for a new one. */
  forget(to: string): void;
  close(): Promise<void>;
}

export async function startCodeSink(): Promise<CodeSink> {
  const codes = new Map<string, string>();
  const waiters = new Map<string, (code: string) => void>();
  let count = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { to: string; subject: string; text: string };
        const code = codeIn(message.text);
        count++;
        const to = message.to.toLowerCase();
        const waiter = waiters.get(to);
        if (waiter) {
          waiters.delete(to);
          waiter(code);
        } else codes.set(to, code);
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/email`,
    received: () => count,
    codeFor(to, timeoutMs = 30_000) {
      const key = to.toLowerCase();
      const ready = codes.get(key);
      if (ready !== undefined) {
        codes.delete(key);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(key);
          reject(new Error(`no code delivered to ${to} within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        waiters.set(key, (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });
    },
    forget: (to) => {
      codes.delete(to.toLowerCase());
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
