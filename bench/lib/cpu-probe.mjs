/**
 * The benches' CPU clock for code that runs inside workerd (whose `process.cpuUsage` is not
 * implemented): a globalSetup on the Node side serves, on loopback, the CPU time (user + system,
 * ms) spent so far by the workerd processes this vitest started (read from /proc). A bench asks it
 * before and after a step; the difference is that step's CPU time, which a loaded machine (other
 * processes taking the cores) does not inflate the way it inflates wall time. Linux only; elsewhere
 * the probe answers null and the bench prints wall time alone.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** @param {string} pid */
function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    return {
      name: stat.slice(stat.indexOf("(") + 1, close),
      ppid: Number(fields[1]),
      cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
    };
  } catch {
    return null;
  }
}

/** CPU ms of every workerd process descending from this one, or null without /proc. */
/** @returns {number | null} */
export function workerdCpuMs() {
  let pids;
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  const stats = new Map(pids.map((p) => [Number(p), procStat(p)]));
  const descends = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; hops++) {
      if (p === process.pid) return true;
      p = stats.get(p)?.ppid ?? 0;
    }
    return false;
  };
  let total = 0;
  for (const [pid, s] of stats) if (s?.name.startsWith("workerd") && descends(pid)) total += s.cpuMs;
  return total;
}

/** @param {import("vitest/node").TestProject} project */
export default async function setup(project) {
  const server = createServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ cpu_ms: workerdCpuMs() }));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  project.provide("cpuProbe", `http://127.0.0.1:${server.address().port}/`);
  return () => new Promise((ok) => server.close(() => ok()));
}
