/**
 * POST as the simulated browsers do, over kept-alive node:http connections: fetch (undici) costs
 * the bench about 300 µs of CPU per request on this machine, node:http about 60, and the bench
 * shares the machine with the server it measures.
 */
import { type Agent, request } from 'node:http';

export interface Reply {
  status: number;
  body: unknown;
}

/** POST `body` (JSON text) to `url`; the reply's body parsed as JSON when it is JSON, else its text. */
export async function post(url: string, agent: Agent, body: string, headers: Record<string, string> = {}): Promise<Reply> {
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status, body: parsed };
}
