// `npm run model-bridge` takes no stranger's orders (issue 26, finding 3): the real script started
// as a process with a stand-in tool that reports its own argv. A web page (Origin), a rebinding
// name (Host), a caller without the token, a text/plain post and a model name meant as a flag are
// all refused, the tool never runs for them, and the good request works.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, readToken, remove, send, startBridge, tempDir, tokenMode } from "./bridge-process.mjs";

const argvTool = new URL("../../fixtures/bridge/argv.mjs", import.meta.url).pathname;
const ENV = {
  BRIDGE_CLI_A_CMD: `"${process.execPath}" "${argvTool}" --model {model}`,
  BRIDGE_CLI_A_MODELS: "small,large",
};

describe("model bridge: only its owner's Worker is obeyed", () => {
  const dir = tempDir();
  let port = 0;
  let stop: () => Promise<void>;
  let token = "";
  let firstOut = "";
  const good = () => ({
    host: `127.0.0.1:${port}`,
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
  });
  const chat = (model: string, user = "Summarize my day.") =>
    JSON.stringify({ model, messages: [{ role: "user", content: user }] });

  beforeAll(async () => {
    port = await freePort();
    const first = await startBridge(dir, port, ENV);
    stop = first.stop;
    firstOut = first.out;
    token = readToken(dir);
  }, 20_000);
  afterAll(async () => {
    await stop();
    remove(dir);
  });

  it("makes a random token on first start, keeps it 0600 and prints it once with how to use it", async () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(tokenMode(dir)).toBe(0o600);
    expect(firstOut).toContain(token);
    expect(firstOut).toContain("MODEL_BRIDGE_TOKEN");
    // A second start keeps the same token and does not print it again.
    const port2 = await freePort();
    const second = await startBridge(dir, port2, ENV);
    await second.stop();
    expect(readToken(dir)).toBe(token);
    expect(second.out).not.toContain(token);
    expect(second.out).toContain("model-bridge-token");
  }, 20_000);

  it("the good request runs the tool: prompt on stdin, only the allowlisted model in argv", async () => {
    const res = await send(port, { headers: good(), body: chat("cli_a:large", "--yolo please") });
    expect(res.status).toBe(200);
    const seen = JSON.parse(res.body.choices[0].message.content);
    expect(seen.argv).toEqual(["--model", "large"]);
    expect(seen.stdin).toContain("--yolo please");
    expect(res.body.model).toBe("cli_a:large");
    // No model named: the allowlist's first.
    const plain = await send(port, { headers: good(), body: chat("cli_a") });
    expect(JSON.parse(plain.body.choices[0].message.content).argv).toEqual(["--model", "small"]);
  });

  it.each<[string, Record<string, string>, number]>([
    ["a web page (Origin header)", { origin: "https://evil.example" }, 403],
    ["a null Origin (sandboxed frame)", { origin: "null" }, 403],
    ["DNS rebinding (a non-loopback Host)", { host: `evil.example:${0}` }, 403],
    ["no token", { authorization: "" }, 401],
    ["a wrong token", { authorization: "Bearer not-the-token" }, 401],
    ["text/plain (a form or beacon)", { "content-type": "text/plain" }, 415],
    ["no content type", { "content-type": "" }, 415],
  ])("refuses %s", async (_name, change, status) => {
    const headers = { ...good(), ...change };
    for (const [k, v] of Object.entries(headers)) if (v === "") delete headers[k as keyof typeof headers];
    const res = await send(port, { headers, body: chat("cli_a") });
    expect(res.status).toBe(status);
    expect(res.body.choices).toBeUndefined();
    expect(typeof res.body.error.message).toBe("string");
  });

  it("health needs the token and refuses Origin and foreign Host too", async () => {
    const path = "/health";
    expect((await send(port, { path, headers: { host: `127.0.0.1:${port}` } })).status).toBe(401);
    expect((await send(port, { path, headers: { ...good(), origin: "http://localhost:5173" } })).status).toBe(
      403,
    );
    expect((await send(port, { path, headers: { ...good(), host: "attacker.example" } })).status).toBe(403);
    const ok = await send(port, { path, headers: good() });
    expect(ok.status).toBe(200);
    expect(ok.body.providers.cli_a).toEqual({ configured: true, available: true });
  });

  it("nothing the caller sends reaches argv: a flag, a placeholder or a path as the model is refused", async () => {
    for (const model of [
      "cli_a:--dangerously-skip-permissions",
      "cli_a:small --x",
      "cli_a:{model}",
      "cli_a:../x",
    ]) {
      const res = await send(port, { headers: good(), body: chat(model) });
      expect(res.status, model).toBe(400);
      expect(res.body.error.type).toBe("model_not_allowed");
    }
    // An unconfigured or made-up provider runs nothing either.
    for (const model of ["cli_b", "__proto__", "constructor:x"]) {
      expect((await send(port, { headers: good(), body: chat(model) })).status, model).toBe(404);
    }
  });
});
