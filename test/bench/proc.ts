// What Linux's /proc says about a child process: the CPU time it used and its resident memory.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * The CPU time a process has used, user and system, all its threads, in microseconds (Linux: /proc/<pid>/stat,
 * fields 14 and 15 in clock ticks of 10 ms); NaN elsewhere.
 */
export function cpuMicros(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

/** A process's resident memory by kind, MB (Linux: /proc/<pid>/smaps_rollup): what files mapped, what anonymous. */
export async function rssKinds(pid: number | undefined): Promise<{ fileMb: number; anonymousMb: number }> {
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? Number.NaN);
  return { fileMb: (kb('Rss') - kb('Anonymous')) / 1024, anonymousMb: kb('Anonymous') / 1024 };
}

/** Peak resident set of a process (VmHWM), in MB. */
export async function peakRss(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** Resident memory of a process now (VmRSS), MB; 0 once it is gone. */
export function residentMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}
