/**
 * Code loaded on demand (on-demand.ts): fetched once and shared; a chunk that cannot be
 * downloaded fails the action with ERR_CHUNK_LOAD_FAILED, and the next action tries again.
 */
import { describe, expect, it } from 'vitest';
import { isWalletKitError } from '../src/errors.js';
import { onDemand } from '../src/on-demand.js';

describe('onDemand', () => {
  it('given several callers, when the chunk loads, then it is fetched once and shared', async () => {
    let fetches = 0;
    const load = onDemand(async () => {
      fetches += 1;
      return { value: 42 };
    });
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(fetches).toBe(1);
  });

  it('given a download that fails, when loaded, then it is ERR_CHUNK_LOAD_FAILED with the cause, and the next call fetches again', async () => {
    const cause = new TypeError('Failed to fetch dynamically imported module');
    let fetches = 0;
    const load = onDemand(async () => {
      fetches += 1;
      if (fetches === 1) throw cause;
      return 'loaded';
    });
    const error = await load().catch((e: unknown) => e);
    expect(isWalletKitError(error, 'ERR_CHUNK_LOAD_FAILED')).toBe(true);
    expect((error as Error).cause).toBe(cause);
    expect((error as Error).message).toMatch(/could not be downloaded/);
    expect(await load()).toBe('loaded');
    expect(fetches).toBe(2);
  });
});
