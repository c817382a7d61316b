/**
 * The two load generators.
 *
 * `measureRequests`: one kind of request at N connections with autocannon (closed loop: each
 * connection sends its next request when the previous one answered). A warm-up run first
 * (requests made on the fly, not counted), whose rate sizes the pool of the measured run: that
 * many requests are built and stamped before the clock starts (unique bodies: no idempotent
 * replay). Should the server outrun the pool, further requests are built on the fly and counted
 * in `builtLate`.
 *
 * `measureFlows`: a multi-request flow (an OTP login) run by N concurrent simulated users in a
 * closed loop, counted as flows per second with each flow's latency.
 */
import autocannon from 'autocannon';

/** One prepared HTTP request. */
export interface Req {
  path: string;
  body: string;
  headers: Record<string, string>;
}

export interface Figures {
  /** Successful (2xx) requests or flows per second over the measured window. */
  rate: number;
  /** Latency percentiles in ms. */
  p50: number;
  p99: number;
  /** 2xx requests / completed flows in the window. */
  ok: number;
  /** Non-2xx answers, socket errors and timeouts / failed flows. */
  failed: number;
  /** The first few failures, as the server answered them. */
  failures: string[];
  seconds: number;
  /** Requests built after the clock started (the prepared pool ran out). */
  builtLate: number;
}

export interface RequestRun {
  /** Base URL (`http://host:port`). */
  url: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Builds and stamps request number `i` (unique). */
  make: (i: number) => Req;
  /** Upper bound of the prepared pool (memory). Default 200,000. */
  maxPool?: number;
  /** Called when the measured window starts; its return is called when it ends (CPU meters). */
  onMeasure?: () => () => void;
}

/** HTTP keep-alive connections answer at most this many requests before autocannon reconnects (none). */
async function autocannonRun(
  url: string,
  connections: number,
  seconds: number,
  next: () => Req,
): Promise<{ result: autocannon.Result; failures: string[]; sent: number }> {
  const failures: string[] = [];
  let sent = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    timeout: 30,
    method: 'POST',
    requests: [
      {
        setupRequest: (req) => {
          const r = next();
          sent++;
          return { ...req, method: 'POST', path: r.path, body: r.body, headers: r.headers };
        },
        onResponse: (status, body) => {
          if ((status < 200 || status >= 300) && failures.length < 5) failures.push(`${status} ${String(body).slice(0, 300)}`);
        },
      },
    ],
  });
  return { result, failures, sent };
}

function figuresOf(result: autocannon.Result, failures: string[], builtLate: number): Figures {
  const ok = result['2xx'];
  const failed = result.non2xx + result.errors + result.timeouts;
  if (result.errors + result.timeouts > 0 && failures.length < 5) failures.push(`${result.errors} socket errors, ${result.timeouts} timeouts`);
  return {
    rate: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    failed,
    failures,
    seconds: result.duration,
    builtLate,
  };
}

/**
 * A full garbage collection of the bench's own heap right before a window's clock starts, when
 * node runs with --expose-gc (`npm run bench` and `bench:profile` do). The load generator's
 * garbage of the warm-up and the pool (native key objects among it, whose finalizers make most of
 * a full collection's time) is collected then, not in a pause of the load generator inside the
 * window: one of 633 ms was seen, and it counted as the server's p99 and cut its rate.
 */
function settleHeap(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Warm up, prepare a pool sized by the warm-up rate, measure. */
export async function measureRequests(run: RequestRun): Promise<Figures> {
  let n = 0;
  const warm = await autocannonRun(run.url, run.connections, run.warmupSeconds, () => run.make(n++));
  const warmRate = warm.result['2xx'] / Math.max(warm.result.duration, 0.001);
  const size = Math.min(run.maxPool ?? 200_000, Math.ceil(warmRate * run.seconds * 3) + 4 * run.connections + 100);
  const pool: Req[] = [];
  for (let i = 0; i < size; i++) pool.push(run.make(n++));
  let taken = 0;
  let late = 0;
  settleHeap();
  const done = run.onMeasure?.();
  const measured = await autocannonRun(run.url, run.connections, run.seconds, () => {
    if (taken < pool.length) return pool[taken++]!;
    late++;
    return run.make(n++);
  });
  done?.();
  return figuresOf(measured.result, measured.failures, late);
}

/**
 * A fixed stream of requests for `seconds` (the soak): built on the fly, no warm-up, no pool.
 * `onTick` is called once a second with the requests answered so far.
 */
export async function sustainRequests(run: Omit<RequestRun, 'warmupSeconds' | 'maxPool'>): Promise<Figures> {
  let n = 0;
  const measured = await autocannonRun(run.url, run.connections, run.seconds, () => run.make(n++));
  return figuresOf(measured.result, measured.failures, measured.sent);
}

/** Percentile of sorted values (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface FlowRun<P> {
  concurrency: number;
  warmupSeconds: number;
  seconds: number;
  /** Prepare what flow `i` needs before the clock (keys, contacts); undefined when there is no flow `i` (out of accounts). */
  prepare: (i: number) => P | undefined;
  /** One flow; throws on failure. */
  flow: (prepared: P, i: number) => Promise<void>;
  /** Most flows that may ever run (accounts available). */
  maxFlows: number;
  /** As RequestRun's. */
  onMeasure?: () => () => void;
  /** Given what was prepared for the window and never ran (the next window's flows may take it: a seeded account's login). */
  unused?: (left: P[]) => void;
}

/** Run closed-loop flows: warm-up, then `seconds` measured; flows still running at the deadline are awaited but not counted. */
export async function measureFlows<P>(run: FlowRun<P>): Promise<Figures> {
  let next = 0;
  const failures: string[] = [];
  const phase = async (seconds: number, source: (i: number) => P | undefined) => {
    const latencies: number[] = [];
    let failed = 0;
    const start = performance.now();
    const deadline = start + seconds * 1000;
    let last = start;
    const user = async () => {
      while (performance.now() < deadline && next < run.maxFlows) {
        const i = next++;
        const prepared = source(i);
        if (prepared === undefined) return;
        const t0 = performance.now();
        try {
          await run.flow(prepared, i);
          const t1 = performance.now();
          if (t1 <= deadline) {
            latencies.push(t1 - t0);
            last = t1;
          }
        } catch (err) {
          failed++;
          if (failures.length < 5) failures.push((err as Error).message.slice(0, 300));
        }
      }
    };
    await Promise.all(Array.from({ length: run.concurrency }, user));
    // Out of accounts before the deadline: the window ends with the last flow.
    const elapsed = next >= run.maxFlows ? (last - start) / 1000 : seconds;
    return { latencies, failed, elapsed };
  };
  const warm = await phase(run.warmupSeconds, run.prepare);
  const warmRate = warm.latencies.length / Math.max(warm.elapsed, 0.001);
  const offset = next;
  const size = Math.max(0, Math.min(run.maxFlows - offset, Math.ceil(warmRate * run.seconds * 3) + 2 * run.concurrency + 20));
  const pool: Array<P | undefined> = [];
  for (let i = 0; i < size; i++) pool.push(run.prepare(offset + i));
  let late = 0;
  settleHeap();
  const done = run.onMeasure?.();
  const measured = await phase(run.seconds, (i) => {
    if (i - offset < pool.length) return pool[i - offset];
    late++;
    return run.prepare(i);
  });
  done?.();
  // Indexes from `next` on were never taken by a simulated user.
  run.unused?.(pool.slice(Math.max(0, next - offset)).filter((p): p is P => p !== undefined));
  const sorted = measured.latencies.sort((a, b) => a - b);
  return {
    rate: sorted.length / Math.max(measured.elapsed, 0.001),
    p50: Math.round(percentile(sorted, 50)),
    p99: Math.round(percentile(sorted, 99)),
    ok: sorted.length,
    failed: measured.failed,
    failures,
    seconds: measured.elapsed,
    builtLate: late,
  };
}
