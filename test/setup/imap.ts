// Node-side helpers (vitest globalSetup only, never imported into workerd): a throwaway Dovecot
// started by scripts/dovecot.sh, and IMAP APPEND / mailbox reset over node:net.
// The repository has no @types/node, so Node built-ins are loaded untyped and given the small
// shapes used here.

/** What a test file gets when Dovecot is missing: why, and how to get it (requireImap() throws it). */
export interface ImapMissing {
  missing: string;
}

/** What `inject("imap")` returns inside workerd tests (through test/helpers/imap.ts). */
export interface ImapTestInfo {
  host: string;
  plainPort: number;
  tlsPort: number;
  user: string;
  password: string;
  caPath: string;
  /** POST {controlUrl}/append?mailbox=M[&count=N] (raw body) → {uid, uidValidity} (the last); POST /reset?mailbox=M. */
  controlUrl: string;
  /** A local port nothing listens on (connection refused). */
  closedPort: number;
  /** A local port that accepts connections and never answers (timeouts). */
  silentPort: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    imap: ImapTestInfo | ImapMissing;
  }
}

export interface DovecotServer {
  dir: string;
  host: string;
  plainPort: number;
  tlsPort: number;
  user: string;
  password: string;
  caPath: string;
  caBundlePath: string;
}

interface NodeSocket {
  write(data: string | Uint8Array): boolean;
  on(event: string, fn: (arg?: any) => void): NodeSocket;
  once(event: string, fn: (arg?: any) => void): NodeSocket;
  end(): void;
  destroy(): void;
}
interface NodeServer {
  listen(port: number, host: string, cb: () => void): void;
  address(): { port: number };
  close(cb?: () => void): void;
  once(event: string, fn: (arg?: any) => void): void;
}
interface NodeNet {
  createConnection(opts: { host: string; port: number }): NodeSocket;
  createServer(onConn?: (socket: NodeSocket) => void): NodeServer;
}

export const node = <T = any>(name: string): Promise<T> => import(/* @vite-ignore */ name);

const ROOT = new URL("../../", import.meta.url).pathname;

/** Is 127.0.0.1:port free to listen on? */
async function portFree(port: number): Promise<boolean> {
  const net = await node<NodeNet>("node:net");
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** A port free right now (listen on 0, then close). */
export async function freePort(): Promise<number> {
  const net = await node<NodeNet>("node:net");
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function script(args: string[], env: Record<string, string> = {}): Promise<string> {
  const cp = await node("node:child_process");
  return new Promise((resolve, reject) => {
    cp.execFile(
      "bash",
      [`${ROOT}scripts/dovecot.sh`, ...args],
      { env: { ...process.env, ...env }, timeout: 180_000 },
      (err: Error | null, stdout: string, stderr: string) =>
        err ? reject(new Error(`dovecot.sh ${args[0]} failed: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}

/** Why Dovecot cannot start here (it is not installed), or null. Tests never install it. */
export async function dovecotMissing(): Promise<string | null> {
  try {
    await script(["installed"]);
    return null;
  } catch (err) {
    return String((err as Error).message)
      .replace(/^dovecot.sh installed failed: /, "")
      .trim();
  }
}

/** Starts Dovecot in a new temp dir (ports 1143/1993 when free, otherwise any free ports). */
export async function startDovecot(): Promise<DovecotServer> {
  const fs = await node("node:fs/promises");
  const os = await node("node:os");
  const dir: string = await fs.mkdtemp(`${os.tmpdir()}/fj-dovecot-`);
  const plain = (await portFree(1143)) ? 1143 : await freePort();
  const tls = (await portFree(1993)) ? 1993 : await freePort();
  // A password that needs escaping in a quoted string and a literal (non-ASCII) in LOGIN.
  const out = await script(["start", dir, "fj-test", 'pa ss"w\\rd-ü'], {
    DOVECOT_PLAIN_PORT: String(plain),
    DOVECOT_TLS_PORT: String(tls),
  });
  return JSON.parse(out.trim().split("\n").pop()!) as DovecotServer;
}

export async function stopDovecot(server: DovecotServer): Promise<void> {
  await script(["stop", server.dir]);
  const fs = await node("node:fs/promises");
  await fs.rm(server.dir, { recursive: true, force: true });
}

/** A line-oriented IMAP session on the plain port (enough for LOGIN/CREATE/APPEND/EXPUNGE). */
async function session<T>(server: DovecotServer, fn: (cmd: Command) => Promise<T>): Promise<T> {
  const net = await node<NodeNet>("node:net");
  const sock = net.createConnection({ host: server.host, port: server.plainPort });
  let buf = "";
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  sock.on("data", (d: Uint8Array) => {
    buf += latin1.decode(d);
    wake?.();
  });
  sock.on("error", (e: Error) => {
    failure = e;
    wake?.();
  });
  sock.on("close", () => {
    failure ??= new Error("IMAP connection closed");
    wake?.();
  });
  const readLine = async (): Promise<string> => {
    for (;;) {
      const i = buf.indexOf("\r\n");
      if (i >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        return line;
      }
      if (failure) throw failure;
      await new Promise<void>((r) => {
        wake = r;
      });
      wake = null;
    }
  };
  let seq = 0;
  const cmd: Command = async (text, literal) => {
    const tag = `N${++seq}`;
    if (literal) {
      sock.write(`${tag} ${text} {${literal.byteLength}+}\r\n`); // LITERAL+: no continuation wait
      sock.write(literal);
      sock.write("\r\n");
    } else sock.write(`${tag} ${text}\r\n`);
    const lines: string[] = [];
    for (;;) {
      const line = await readLine();
      lines.push(line);
      if (line.startsWith(`${tag} `)) return { ok: line.startsWith(`${tag} OK`), lines };
    }
  };
  try {
    await readLine(); // greeting
    const pw = server.password;
    const login = /^[\x20-\x7e]*$/.test(pw)
      ? await cmd(`LOGIN ${quote(server.user)} ${quote(pw)}`)
      : await cmd(`LOGIN ${quote(server.user)}`, new TextEncoder().encode(pw));
    if (!login.ok) throw new Error(`IMAP login failed: ${login.lines.at(-1)}`);
    return await fn(cmd);
  } finally {
    sock.end();
    sock.destroy();
  }
}
const latin1 = new TextDecoder("latin1");
type Command = (text: string, literal?: Uint8Array) => Promise<{ ok: boolean; lines: string[] }>;

function quote(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** APPENDs a raw message (the mailbox is created when missing). */
export async function appendMessage(
  server: DovecotServer,
  mailbox: string,
  raw: Uint8Array,
  count = 1,
): Promise<{ uid: number; uidValidity: number }> {
  return session(server, async (cmd) => {
    if (mailbox.toUpperCase() !== "INBOX") await cmd(`CREATE ${quote(mailbox)}`);
    // `count` copies in one session, each with "{n}" in it read as its number (1, 2, ...).
    const text = count > 1 ? new TextDecoder().decode(raw) : "";
    let last = { uid: 0, uidValidity: 0 };
    for (let n = 1; n <= count; n++) {
      const msg = count > 1 ? new TextEncoder().encode(text.replaceAll("{n}", String(n))) : raw;
      const res = await cmd(`APPEND ${quote(mailbox)}`, msg);
      const m = /\[APPENDUID (\d+) (\d+)\]/.exec(res.lines.at(-1) ?? "");
      if (!res.ok || !m) throw new Error(`APPEND failed: ${res.lines.at(-1)}`);
      last = { uidValidity: Number(m[1]), uid: Number(m[2]) };
    }
    return last;
  });
}

/** Empties a mailbox. Other than INBOX it is deleted and created again: a new UIDVALIDITY. */
export async function resetMailbox(server: DovecotServer, mailbox: string): Promise<void> {
  await session(server, async (cmd) => {
    if (mailbox.toUpperCase() === "INBOX") {
      await cmd("SELECT INBOX");
      await cmd("STORE 1:* +FLAGS.SILENT (\\Deleted)");
      await cmd("EXPUNGE");
      return;
    }
    await cmd(`DELETE ${quote(mailbox)}`);
    const res = await cmd(`CREATE ${quote(mailbox)}`);
    if (!res.ok) throw new Error(`CREATE failed: ${res.lines.at(-1)}`);
  });
}
