// What `npm start` shows of wrangler dev's output: what a person needs (where it listens, warnings
// and errors that matter, the Worker's own log lines), not wrangler's banners, the
// bindings table (printed twice), the offline `Request.cf` fetch with its stack trace, or its
// "cron not triggered" advice (npm start fires the crons itself), nor a line per request.
// FJ_VERBOSE=1 shows everything.

const DROP = [
  /⛅️ wrangler/,
  /^[─-]{10,}$/,
  /^Your Worker (and resources )?(has|have) access to the following bindings/,
  /^Binding\s+Resource/,
  /^env\.[A-Z_]+ /,
  /Unable to fetch the `Request\.cf` object/,
  /getaddrinfo ENOTFOUND/,
  /^\s+at .+\(.*\)$|^\s+at [^\s]+:\d+:\d+$|^\s+at node:/,
  /^⎔ (Starting local server|Connection status updated|Reloading local server)/,
  /^Resource location: /,
  /^\[wrangler:info\] ✨ Parsed \d+ valid (header|redirect) rules?\.?$/,
  /^Use --remote if you want/,
  /\/cdn-cgi\/handler\/scheduled/,
  // One line per request (the dashboard makes several a page): FJ_VERBOSE=1 shows them.
  /^\[wrangler:info\] (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \S+ \d{3} /,
  // One line per queue batch (the demo seed's steps, a backup's): the Worker's log has what each did.
  /^\[wrangler:info\] QUEUE \S+ \d+\/\d+ /,
  /Ready on http/,
  // The OAuth library's note about a feature this journal leaves off (clientIdMetadataDocumentEnabled:
  // false), phrased for a wrangler.jsonc this project does not have.
  /CIMD \(Client ID Metadata Document\) is disabled/,
];
// Multi-line notices to drop whole: a first line and how many lines follow it.
const BLOCKS = [
  {
    start: /Scheduled Workers are not automatically triggered/,
    follow: /^\s*(To manually trigger|curl |For more details|$)/,
  },
];

// ANSI colour codes (ESC [ … m).
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** One of the Worker's structured log lines (src/lib/log.ts): `{"level":…,"event":…}`. */
const STRUCTURED = /^\{"level":"(debug|info|warn|error)","event":/;

/**
 * A line filter with state (blocks, blank runs): returns the line to print, or null. The Worker's
 * structured log lines go to `logLine` (a file) instead of the terminal, except errors; FJ_VERBOSE=1
 * prints them all.
 */
export function devOutputFilter({ verbose = process.env.FJ_VERBOSE === "1", onReady, logLine } = {}) {
  let inBlock = null;
  let lastBlank = true;
  return (raw) => {
    const line = raw.replace(ANSI, "").replace(/\s+$/, "");
    const ready = line.match(/Ready on (http\S+)/);
    if (ready) onReady?.(ready[1]);
    if (verbose) return raw;
    const structured = line.match(STRUCTURED);
    if (structured) {
      logLine?.(line);
      return structured[1] === "error" ? line : null;
    }
    if (inBlock) {
      if (inBlock.follow.test(line)) return null;
      inBlock = null;
    }
    const block = BLOCKS.find((b) => b.start.test(line));
    if (block) {
      inBlock = block;
      return null;
    }
    if (DROP.some((re) => re.test(line))) return null;
    if (line === "") {
      if (lastBlank) return null;
      lastBlank = true;
      return "";
    }
    lastBlank = false;
    return line;
  };
}

/** Splits a stream into lines and passes each through `filter`, writing what it keeps. */
export function pipeLines(stream, filter, write) {
  let buf = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    buf += chunk;
    let i = buf.indexOf("\n");
    while (i >= 0) {
      const kept = filter(buf.slice(0, i));
      if (kept !== null) write(`${kept}\n`);
      buf = buf.slice(i + 1);
      i = buf.indexOf("\n");
    }
  });
  stream.on("end", () => {
    if (buf) {
      const kept = filter(buf);
      if (kept !== null) write(`${kept}\n`);
    }
  });
}
