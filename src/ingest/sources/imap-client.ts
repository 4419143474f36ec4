import { connect } from "cloudflare:sockets";

/**
 * A small IMAP4rev1 client over `cloudflare:sockets` (RFC 3501): LOGIN, SELECT, UID SEARCH,
 * UID FETCH BODY.PEEK[], LOGOUT. Plain TCP, STARTTLS and implicit TLS. connect() has no timeout of
 * its own, so connecting and every command run under one here. Passwords never reach an error.
 */
export type ImapTls = "implicit" | "starttls" | "plain";

export interface ImapConnectOptions {
  host: string;
  port: number;
  tls: ImapTls;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
}

export type ImapErrorKind = "connection" | "timeout" | "auth" | "command" | "protocol";

/** Base of every error thrown here; `kind` says which. */
export class ImapError extends Error {
  override name = "ImapError";
  readonly kind: ImapErrorKind = "protocol";
}
/** Could not reach the server, or the connection dropped. */
export class ImapConnectionError extends ImapError {
  override name = "ImapConnectionError";
  override readonly kind: ImapErrorKind = "connection";
}
export class ImapTimeoutError extends ImapError {
  override name = "ImapTimeoutError";
  override readonly kind: ImapErrorKind = "timeout";
}
/** A tagged NO or BAD: the command's name, status and server text; never its arguments. */
export class ImapCommandError extends ImapError {
  override name = "ImapCommandError";
  override readonly kind: ImapErrorKind = "command";
  constructor(
    readonly command: string,
    readonly status: "NO" | "BAD",
    readonly serverText: string,
  ) {
    super(`IMAP ${command} failed: ${status} ${serverText}`.slice(0, 300));
  }
}
/** LOGIN was refused (wrong user or password, or login disabled). */
export class ImapAuthError extends ImapCommandError {
  override name = "ImapAuthError";
  override readonly kind: ImapErrorKind = "auth";
}

/** One server response: its text lines and the literals ({N} byte strings) between them. */
interface Response {
  lines: string[];
  literals: Uint8Array[];
}

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8");

/** An IMAP astring: a quoted string when safe, else a literal (sent with a continuation). */
function astring(value: string): string | Uint8Array {
  if (/^[\x20-\x7e]*$/.test(value)) return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  return enc.encode(value);
}

export class ImapSession {
  private reader!: ReadableStreamDefaultReader<Uint8Array>;
  private writer!: WritableStreamDefaultWriter<Uint8Array>;
  private buf = new Uint8Array(0);
  private tagSeq = 0;
  private closed = false;

  private constructor(
    private socket: Socket,
    private readonly timeoutMs: number,
  ) {
    this.attach();
  }

  /** Connects, reads the greeting and, for "starttls", upgrades before anything else is sent. */
  static async open(opts: ImapConnectOptions): Promise<ImapSession> {
    const secureTransport = opts.tls === "implicit" ? "on" : opts.tls === "starttls" ? "starttls" : "off";
    const failed = (err: unknown) => new ImapConnectionError(`connect ${opts.host}:${opts.port}: ${err}`);
    let socket: Socket;
    try {
      socket = connect({ hostname: opts.host, port: opts.port }, { secureTransport, allowHalfOpen: false });
    } catch (err) {
      throw failed(err);
    }
    const session = new ImapSession(socket, opts.commandTimeoutMs ?? 30_000);
    try {
      await session.withTimeout(opts.connectTimeoutMs ?? 10_000, "connect", async () => {
        await socket.opened.catch((err) => Promise.reject(failed(err)));
        const first = (await session.readResponse()).lines[0] ?? "";
        if (!/^\* (OK|PREAUTH)\b/i.test(first)) throw new ImapConnectionError(`server refused: ${first}`);
      });
      if (opts.tls === "starttls") {
        await session.command("STARTTLS");
        // Anything the server sent before the handshake could be injected plaintext.
        if (session.buf.byteLength) throw new ImapError("unexpected data after STARTTLS");
        // Locks must be free (and no read pending) before the socket can be upgraded.
        session.reader.releaseLock();
        session.writer.releaseLock();
        session.socket = session.socket.startTls();
        session.attach();
        await session.command("CAPABILITY");
      }
    } catch (err) {
      session.close();
      throw err;
    }
    return session;
  }

  async login(user: string, password: string): Promise<void> {
    await this.command("LOGIN", [astring(user), astring(password)]);
  }

  /** SELECTs the mailbox and returns its UIDVALIDITY and message count. */
  async select(mailbox: string): Promise<{ uidValidity: number; exists: number }> {
    const res = await this.command("SELECT", [astring(mailbox)]);
    const text = res.flatMap((r) => r.lines).join("\n");
    const uidValidity = Number(/\[UIDVALIDITY (\d+)\]/i.exec(text)?.[1] ?? Number.NaN);
    if (!Number.isFinite(uidValidity)) throw new ImapError("SELECT returned no UIDVALIDITY");
    return { uidValidity, exists: Number(/^\* (\d+) EXISTS/im.exec(text)?.[1] ?? 0) };
  }

  /** UIDs >= from, ascending. `n:*` always matches the highest UID, even below n: filtered here. */
  async searchUidsFrom(from: number): Promise<number[]> {
    const start = Math.max(1, Math.floor(from));
    const res = await this.command("UID SEARCH", [`UID ${start}:*`]);
    const line = res.flatMap((r) => r.lines).find((l) => /^\* SEARCH\b/i.test(l)) ?? "";
    const uids = line.slice(8).trim().split(/\s+/).map(Number);
    return [...new Set(uids.filter((u) => Number.isInteger(u) && u >= start))].sort((a, b) => a - b);
  }

  /** The raw message bytes, exactly as stored, or null when the UID no longer exists. */
  async fetchRaw(uid: number): Promise<Uint8Array | null> {
    const res = await this.command("UID FETCH", [`${uid} BODY.PEEK[]`]);
    for (const r of res) {
      if (!/^\* \d+ FETCH /i.test(r.lines[0] ?? "")) continue;
      if (Number(/\bUID (\d+)/i.exec(r.lines.join(" "))?.[1]) !== uid) continue;
      // lines[i] ends with "{N}" and literals[i] follows it.
      for (let i = 0; i < r.literals.length; i++) {
        if (/BODY\[\](<\d+>)? \{\d+\}$/i.test(r.lines[i] ?? "")) return r.literals[i]!;
      }
    }
    return null;
  }

  /** Best-effort: the server may close first. */
  async logout(): Promise<void> {
    if (!this.closed) await this.command("LOGOUT").catch(() => {});
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.close().catch(() => {});
  }

  /**
   * Sends `tag NAME args` and collects untagged responses until the tagged one. A literal argument
   * waits for the server's "+" continuation. NO/BAD throw ImapCommandError (ImapAuthError for LOGIN).
   */
  async command(name: string, args: (string | Uint8Array)[] = []): Promise<Response[]> {
    if (this.closed) throw new ImapConnectionError("connection is closed");
    const tag = `A${++this.tagSeq}`;
    return this.withTimeout(this.timeoutMs, name, async () => {
      const untagged: Response[] = [];
      const rest = [...args];
      let line = `${tag} ${name}`;
      for (;;) {
        while (typeof rest[0] === "string") line += ` ${rest.shift()}`;
        const literal = rest.shift() as Uint8Array | undefined;
        await this.write(enc.encode(literal ? `${line} {${literal.byteLength}}\r\n` : `${line}\r\n`));
        for (;;) {
          const r = await this.readResponse();
          const first = r.lines[0] ?? "";
          if (first.startsWith(`${tag} `)) return this.finish(name, first, untagged);
          if (literal && first.startsWith("+")) break;
          untagged.push(r);
        }
        await this.write(literal!);
        line = "";
      }
    });
  }

  private finish(name: string, tagged: string, untagged: Response[]): Response[] {
    const m = /^\S+ (OK|NO|BAD)\b ?(.*)$/i.exec(tagged);
    if (!m) throw new ImapError(`unexpected response to ${name}`);
    const status = m[1]!.toUpperCase() as "OK" | "NO" | "BAD";
    if (status === "OK") return untagged;
    throw new (name === "LOGIN" ? ImapAuthError : ImapCommandError)(name, status, m[2] ?? "");
  }

  private attach(): void {
    this.reader = this.socket.readable.getReader();
    this.writer = this.socket.writable.getWriter();
  }

  private write(bytes: Uint8Array): Promise<void> {
    return this.writer.write(bytes).catch((err) => Promise.reject(new ImapConnectionError(`write: ${err}`)));
  }

  /** Pulls one chunk into the buffer. Reads happen only on demand, so none is pending between commands. */
  private async fill(): Promise<void> {
    const chunk = await this.reader
      .read()
      .catch((err) => Promise.reject(new ImapConnectionError(`read: ${err}`)));
    if (chunk.done) throw new ImapConnectionError("server closed the connection");
    const next = new Uint8Array(this.buf.byteLength + chunk.value.byteLength);
    next.set(this.buf);
    next.set(chunk.value, this.buf.byteLength);
    this.buf = next;
  }

  private async readLine(): Promise<string> {
    for (;;) {
      const i = this.buf.findIndex((b, j) => b === 13 && this.buf[j + 1] === 10);
      if (i >= 0) {
        const line = dec.decode(this.buf.subarray(0, i));
        this.buf = this.buf.subarray(i + 2);
        return line;
      }
      await this.fill();
    }
  }

  /** Exactly n bytes, copied out of the buffer (binary-safe). */
  private async readBytes(n: number): Promise<Uint8Array> {
    const out = new Uint8Array(n);
    let got = 0;
    while (got < n) {
      if (this.buf.byteLength === 0) await this.fill();
      const take = Math.min(n - got, this.buf.byteLength);
      out.set(this.buf.subarray(0, take), got);
      this.buf = this.buf.subarray(take);
      got += take;
    }
    return out;
  }

  /** A line; while it ends with {N}, the N literal bytes and the line that continues it. */
  private async readResponse(): Promise<Response> {
    const res: Response = { lines: [await this.readLine()], literals: [] };
    for (;;) {
      const m = /\{(\d+)\+?\}$/.exec(res.lines[res.lines.length - 1]!);
      if (!m) return res;
      res.literals.push(await this.readBytes(Number(m[1])));
      res.lines.push(await this.readLine());
    }
  }

  /** Runs fn under a deadline; on expiry the socket is closed so no read is left hanging. */
  private async withTimeout<T>(ms: number, what: string, fn: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.close();
        reject(new ImapTimeoutError(`IMAP ${what} timed out after ${ms} ms`));
      }, ms);
    });
    try {
      return await Promise.race([fn(), deadline]);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }
}
