/**
 * Where the CPU went during a measured run (Linux /proc), so that a figure can be read against
 * what the machine had left: the server process (with its cluster workers), the bench process
 * itself (the load generator, the code sink, the simulated users), and the whole machine, with
 * the time the hypervisor gave to someone else (steal): on a shared virtual machine a figure taken
 * while the host was busy elsewhere is lower for reasons that are not the code's. The same for the
 * disk: idle time with I/O outstanding (iowait) and the share of time some task waited for I/O.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds of `pid` and its descendants (cluster workers), or 0 once gone. */
function treeSeconds(pid: number): number {
  let total = 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    total += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) total += treeSeconds(Number(child));
    }
  } catch {}
  return total;
}

/**
 * Busy, stolen and total jiffies of the machine (/proc/stat's first line: user nice system idle
 * iowait irq softirq steal guest guest_nice; guest time is already counted in user). Busy counts
 * what the machine's own CPUs ran; steal is time they were ready but the host ran another guest.
 */
function machine(): { busy: number; steal: number; iowait: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const values = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = values.reduce((a, b) => a + b, 0);
    const iowait = values[4] ?? 0;
    const idle = (values[3] ?? 0) + iowait;
    const steal = values[7] ?? 0;
    return { busy: total - idle - steal, steal, iowait, total };
  } catch {
    return { busy: 0, steal: 0, iowait: 0, total: 0 };
  }
}

/**
 * Microseconds during which at least one task of the machine waited for I/O (Linux pressure
 * stall information, /proc/pressure/io's `some total`), or undefined where the kernel has none.
 */
function ioStallMicros(): number | undefined {
  try {
    const some = readFileSync('/proc/pressure/io', 'utf8').split('\n')[0]!;
    const total = /total=(\d+)/.exec(some)?.[1];
    return total === undefined ? undefined : Number(total);
  } catch {
    return undefined;
  }
}

export interface CpuShare {
  /** Cores used on average (1.0 = one core busy all the time). */
  server: number;
  bench: number;
  /** The whole machine, cores busy of `cores` (its own work, steal not included). */
  machine: number;
  /** Cores' worth of time the hypervisor ran someone else while this machine had work (steal). */
  steal: number;
  /** Cores' worth of idle time with I/O outstanding (iowait). */
  iowait: number;
  /** Share of the wall time during which some task waited for I/O (PSI); undefined without PSI. */
  ioStalled?: number;
  cores: number;
}

/** Start counting; the returned function gives the shares since. */
export function cpuMeter(serverPid: number | undefined): () => CpuShare {
  const t0 = performance.now();
  const s0 = serverPid ? treeSeconds(serverPid) : 0;
  const b0 = process.cpuUsage();
  const m0 = machine();
  const io0 = ioStallMicros();
  return () => {
    const wall = (performance.now() - t0) / 1000;
    const b = process.cpuUsage(b0);
    const m = machine();
    const io = ioStallMicros();
    const cores = cpus().length;
    const share = (now: number, then: number) => (m.total > m0.total ? ((now - then) / (m.total - m0.total)) * cores : 0);
    return {
      server: serverPid ? (treeSeconds(serverPid) - s0) / wall : 0,
      bench: (b.user + b.system) / 1e6 / wall,
      machine: share(m.busy, m0.busy),
      steal: share(m.steal, m0.steal),
      iowait: share(m.iowait, m0.iowait),
      ...(io !== undefined && io0 !== undefined && wall > 0 ? { ioStalled: (io - io0) / 1e6 / wall } : {}),
      cores,
    };
  };
}

/**
 * The CPU line under a figure. A figure whose machine is far from its cores while iowait or the
 * I/O stall share is high waited for the disk, not for the code.
 */
export const formatCpu = (c: CpuShare) =>
  `cpu (cores): server ${c.server.toFixed(2)}, bench ${c.bench.toFixed(2)}, machine ${c.machine.toFixed(2)} of ${c.cores}, stolen ${c.steal.toFixed(2)}, iowait ${c.iowait.toFixed(2)}` +
  (c.ioStalled === undefined ? '' : `, io stalled ${(c.ioStalled * 100).toFixed(0)}%`);
