// vitest globalSetup piece (Node side): a throwaway Dovecot, a loopback HTTP control server that
// workerd tests use to APPEND messages and reset mailboxes, and TLS trust for the test certificate.
// Workerd tests read the details with `inject("imap")`.
import {
  appendMessage,
  type DovecotServer,
  dovecotMissing,
  type ImapMissing,
  freePort,
  type ImapTestInfo,
  node,
  resetMailbox,
  startDovecot,
  stopDovecot,
} from "./imap";

interface Provider {
  provide(key: "imap", value: ImapTestInfo | ImapMissing): void;
}

/**
 * Starts everything, provides "imap", and returns the teardown. When Dovecot is not installed the
 * run goes on (nothing is installed here): the files that need IMAP fail with how to get it.
 */
export async function setupImap(project: Provider): Promise<() => Promise<void>> {
  const missing = await dovecotMissing();
  if (missing) {
    project.provide("imap", { missing });
    return async () => {};
  }
  const server = await startDovecot();
  const closers: (() => Promise<void>)[] = [() => stopDovecot(server)];
  try {
    const control = await startControlServer(server);
    closers.unshift(control.close);
    const silent = await startSilentServer();
    closers.unshift(silent.close);

    // workerd verifies TLS for real: trust the system roots plus the test certificate.
    const previous = process.env.SSL_CERT_FILE;
    process.env.SSL_CERT_FILE = await trustBundle(server, previous);
    closers.push(async () => {
      if (previous === undefined) delete process.env.SSL_CERT_FILE;
      else process.env.SSL_CERT_FILE = previous;
    });

    project.provide("imap", {
      host: server.host,
      plainPort: server.plainPort,
      tlsPort: server.tlsPort,
      user: server.user,
      password: server.password,
      caPath: server.caPath,
      controlUrl: `http://127.0.0.1:${control.port}`,
      closedPort: await freePort(),
      silentPort: silent.port,
    });
  } catch (err) {
    await teardown(closers);
    throw err;
  }
  return () => teardown(closers);
}

export default setupImap;

async function teardown(closers: (() => Promise<void>)[]): Promise<void> {
  for (const close of closers) await close().catch(() => {});
}

async function trustBundle(server: DovecotServer, previous: string | undefined): Promise<string> {
  if (!previous) return server.caBundlePath;
  const fs = await node("node:fs/promises");
  const path = `${server.dir}/ca-with-previous.pem`;
  await fs.writeFile(
    path,
    `${await fs.readFile(previous, "utf8")}\n${await fs.readFile(server.caPath, "utf8")}`,
  );
  return path;
}

/**
 * POST /append?mailbox=M (raw message body) → {uid, uidValidity}; with &count=N, N copies in one
 * session, "{n}" in each read as its number (the last one's UID); POST /reset?mailbox=M → {ok}.
 */
async function startControlServer(
  server: DovecotServer,
): Promise<{ port: number; close: () => Promise<void> }> {
  const http = await node("node:http");
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  const srv = http.createServer((req: any, res: any) => {
    const chunks: Uint8Array[] = [];
    req.on("data", (c: Uint8Array) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const mailbox = url.searchParams.get("mailbox") || "INBOX";
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      try {
        if (req.method !== "POST") return reply(405, { error: "POST only" });
        if (url.pathname === "/append") {
          const raw = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
          let at = 0;
          for (const c of chunks) {
            raw.set(c, at);
            at += c.byteLength;
          }
          const count = Math.min(1000, Math.max(1, Number(url.searchParams.get("count")) || 1));
          return reply(200, await serial(() => appendMessage(server, mailbox, raw, count)));
        }
        if (url.pathname === "/reset") {
          await serial(() => resetMailbox(server, mailbox));
          return reply(200, { ok: true });
        }
        reply(404, { error: "not found" });
      } catch (err) {
        reply(500, { error: String(err) });
      }
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return {
    port: srv.address().port,
    close: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}

/** Accepts TCP connections and never answers: for timeout tests. */
async function startSilentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const net = await node("node:net");
  const sockets = new Set<any>();
  const srv = net.createServer((s: any) => {
    sockets.add(s);
    s.on("error", () => {});
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return {
    port: srv.address().port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        srv.close(() => resolve());
      }),
  };
}
