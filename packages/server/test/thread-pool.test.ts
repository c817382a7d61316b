/**
 * The worker thread pool (threads/pool.ts) run from source: each pool's worker is bundled with
 * esbuild at its first job. Two pools starting at once (a server's stamp checks and signer
 * threads had a pool each then, both started by its first concurrent requests; two servers in one
 * process still do) once hung forever: the first build stopped esbuild's service under the second.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ThreadPool, threadsPerWorker } from '../src/threads/pool.js';

type Reply = { value: number; onWorker: boolean };
const pools: ThreadPool<number, Reply>[] = [];
const pool = (name: string, inProcess: (n: number) => Reply) => {
  const p = new ThreadPool<number, Reply>(new URL(`./support/threads/${name}.js`, import.meta.url), undefined, 1, inProcess);
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('ThreadPool', () => {
  it('given two pools with different workers, when both get their first jobs at once, then both answer from worker threads', async () => {
    const double = pool('double-worker', (n) => ({ value: n * 2, onWorker: false }));
    const square = pool('square-worker', (n) => ({ value: n * n, onWorker: false }));
    const replies = await Promise.race([
      Promise.all([double.run(3), square.run(3), double.run(5), square.run(5)]),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('a pool never answered')), 20_000)),
    ]);
    expect(replies).toEqual([
      { value: 6, onWorker: true },
      { value: 9, onWorker: true },
      { value: 10, onWorker: true },
      { value: 25, onWorker: true },
    ]);
  });

  it('given no threads, when a job runs, then it runs in-process', async () => {
    const p = new ThreadPool<number, Reply>(new URL('./support/threads/double-worker.js', import.meta.url), undefined, 0, (n) => ({
      value: n * 2,
      onWorker: false,
    }));
    pools.push(p);
    expect(await p.run(4)).toEqual({ value: 8, onWorker: false });
  });
});

describe('ThreadPool light workers (decision 0038)', () => {
  const tagged: ThreadPool<number, string>[] = [];
  afterEach(async () => {
    await Promise.all(tagged.splice(0).map((p) => p.close()));
  });
  /** One worker tagged `full`, and `light` workers tagged `light` that take light jobs only. */
  const tagPool = (threads: number, light: number) => {
    const p = new ThreadPool<number, string>(new URL('./support/threads/tag-worker.js', import.meta.url), 'full', threads, () => 'in-process', {
      threads: light,
      workerData: 'light',
    });
    tagged.push(p);
    return p;
  };

  it('given one worker and two light ones, when jobs that are not light all run at once, then the one worker takes every one of them', async () => {
    const p = tagPool(1, 2);
    expect(await Promise.all([50, 50, 50, 50, 50, 50].map((ms) => p.run(ms)))).toEqual(['full', 'full', 'full', 'full', 'full', 'full']);
  });

  it('given one worker and two light ones, when three light jobs run at once, then each goes to the least busy worker, the light ones among them, with their own workerData', async () => {
    const p = tagPool(1, 2);
    await p.run(0); // started
    expect(await Promise.all([200, 200, 200].map((ms) => p.run(ms, { light: true })))).toEqual(['full', 'light', 'light']);
  });

  it('given no workers and light ones asked for, when any job runs, then it runs in-process and no light worker starts', async () => {
    const p = tagPool(0, 2);
    expect(await p.run(1, { light: true })).toBe('in-process');
    expect(await p.run(1)).toBe('in-process');
  });
});

describe('threadsPerWorker (--workers N)', () => {
  it('given as many processes as cores, when each sizes its pools, then none starts a thread (each works on its event loop)', () => {
    expect(threadsPerWorker(2, 2)).toBe(0);
    expect(threadsPerWorker(4, 4)).toBe(0);
    expect(threadsPerWorker(4, 2)).toBe(0);
  });
  it('given more cores than processes, when each sizes its pools, then each takes its share beside its event loop', () => {
    expect(threadsPerWorker(2, 4)).toBe(1);
    expect(threadsPerWorker(2, 8)).toBe(3);
    expect(threadsPerWorker(3, 16)).toBe(4);
  });
});
