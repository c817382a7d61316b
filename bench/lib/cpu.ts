/**
 * Where the CPU went during a measured run (Linux /proc), so that a figure can be read against
 * what the machine had left: the server process (with its cluster workers), the bench process
 * itself (the load generator, the code sink, the simulated users), and the whole machine, with
 * the time the hypervisor gave to someone else (steal): on a shared virtual machine a figure taken
 * while the host was busy elsewhere is lower for reasons that are not the code's.
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
function machine(): { busy: number; steal: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const values = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = values.reduce((a, b) => a + b, 0);
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    const steal = values[7] ?? 0;
    return { busy: total - idle - steal, steal, total };
  } catch {
    return { busy: 0, steal: 0, total: 0 };
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
  cores: number;
}

/** Start counting; the returned function gives the shares since. */
export function cpuMeter(serverPid: number | undefined): () => CpuShare {
  const t0 = performance.now();
  const s0 = serverPid ? treeSeconds(serverPid) : 0;
  const b0 = process.cpuUsage();
  const m0 = machine();
  return () => {
    const wall = (performance.now() - t0) / 1000;
    const b = process.cpuUsage(b0);
    const m = machine();
    const cores = cpus().length;
    const share = (now: number, then: number) => (m.total > m0.total ? ((now - then) / (m.total - m0.total)) * cores : 0);
    return {
      server: serverPid ? (treeSeconds(serverPid) - s0) / wall : 0,
      bench: (b.user + b.system) / 1e6 / wall,
      machine: share(m.busy, m0.busy),
      steal: share(m.steal, m0.steal),
      cores,
    };
  };
}

export const formatCpu = (c: CpuShare) =>
  `cpu (cores): server ${c.server.toFixed(2)}, bench ${c.bench.toFixed(2)}, machine ${c.machine.toFixed(2)} of ${c.cores}, stolen ${c.steal.toFixed(2)}`;
