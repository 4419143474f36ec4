// wrangler dev does not fire Cron Triggers by itself. Under `npm start` this drives them the way
// Cloudflare would (every minute; 03:30 UTC daily; 17:00 UTC on the 8th), through wrangler's local
// scheduled endpoint, so a configured mailbox is polled locally too. FJ_LOCAL_CRON=0 turns it off.

/** The cron expressions due at `now` (a Date at a minute boundary), as wrangler.toml lists them. */
export function dueCrons(now) {
  const due = ["* * * * *"];
  if (now.getUTCHours() === 3 && now.getUTCMinutes() === 30) due.push("30 3 * * *");
  if (now.getUTCDate() === 8 && now.getUTCHours() === 17 && now.getUTCMinutes() === 0) due.push("0 17 8 * *");
  return due;
}

/** Where wrangler dev listens, from the same argv npm start passes to it. */
export function devOrigin(argv) {
  const val = (flag, dflt) => {
    const i = argv.indexOf(flag);
    if (i >= 0 && argv[i + 1]) return argv[i + 1];
    const eq = argv.find((a) => a.startsWith(`${flag}=`));
    return eq ? eq.slice(flag.length + 1) : dflt;
  };
  const ip = val("--ip", "localhost");
  const host = ip === "0.0.0.0" || ip === "*" ? "127.0.0.1" : ip;
  return `http://${host.includes(":") ? `[${host}]` : host}:${val("--port", "8787")}`;
}

export function startLocalCron(origin, { log = console.log } = {}) {
  if (process.env.FJ_LOCAL_CRON === "0") return () => {};
  let timer;
  const tick = async () => {
    const now = new Date();
    now.setUTCSeconds(0, 0);
    for (const cron of dueCrons(now)) {
      try {
        await fetch(`${origin}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(cron)}`);
      } catch {
        // not up yet, or shutting down: the next minute tries again
      }
    }
    schedule();
  };
  const schedule = () => {
    const ms = 60_000 - (Date.now() % 60_000) + 200;
    timer = setTimeout(tick, ms);
  };
  schedule();
  log(`local cron: firing scheduled() every minute at ${origin} (FJ_LOCAL_CRON=0 to disable)`);
  return () => clearTimeout(timer);
}
