// The model bridge (scripts/model-bridge.mjs) with stand-in command-line tools that answer well,
// print garbage, exit non-zero or hang; reached through the Worker's own OpenAI-SDK client.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BridgeServer,
  configFromEnv,
  createBridge,
  splitCommand,
} from "../../../scripts/model-bridge.mjs";
import { HostedProvider } from "../../../src/ai/hosted";
import { AiError } from "../../../src/ai/provider";

const fixture = (name: string) => new URL(`../../fixtures/bridge/${name}.mjs`, import.meta.url).pathname;
const TOKEN = "bridge-secret";

async function listen(server: BridgeServer): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  return `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
}

const client = (base: string, model: string, apiKey = TOKEN) =>
  new HostedProvider({ apiKey, baseURL: `${base}/v1`, model, timeoutMs: 10_000, maxRetries: 0 });

async function aiError(p: Promise<unknown>): Promise<AiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AiError) return err;
    throw err;
  }
  throw new Error("expected an AiError");
}

describe("model bridge", () => {
  let server: BridgeServer;
  let base: string;
  const lines: string[] = [];
  beforeAll(async () => {
    server = createBridge(
      {
        commands: {
          cli_a: ["node", fixture("good")],
          cli_b: ["node", fixture("garbage")],
          cli_c: ["node", fixture("fail")],
        },
        models: { cli_a: ["quick", "deep"] },
        token: TOKEN,
        timeoutMs: 5000,
      },
      (l) => lines.push(l),
    );
    base = await listen(server);
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("runs the provider's command with the prompt on stdin and answers as a chat completion", async () => {
    const text = await client(base, "cli_a:deep").generateText({
      system: "Be brief.",
      user: "Summarize my day.",
    });
    expect(text).toMatch(/^Answer from deep to \d+ characters\.$/);
    expect(await client(base, "cli_a").generateText({ system: "s", user: "u" })).toMatch(
      /^Answer from quick/,
    );
    // The log line names provider, exit status and duration; never the prompt.
    expect(lines.at(-1)).toMatch(/^cli_a exit=0 \d+ms$/);
    expect(lines.join("\n")).not.toContain("Summarize my day");
  });

  it("forced tool calls: JSON in the tool's output becomes the call; garbage becomes 'no tool call'", async () => {
    const tool = {
      name: "categorize_transaction",
      description: "pick one",
      parameters: { type: "object", properties: { category: { type: "string" } }, required: ["category"] },
    };
    expect(await client(base, "cli_a").callTool({ system: "s", user: "COFFEE $4", tool })).toEqual({
      category: "Groceries",
    });
    expect((await aiError(client(base, "cli_b").callTool({ system: "s", user: "u", tool }))).kind).toBe(
      "no_tool_call",
    );
  });

  it("a tool that exits non-zero is an HTTP 502; an unknown provider a 404; a wrong token a 401", async () => {
    const failed = await aiError(client(base, "cli_c").generateText({ system: "s", user: "u" }));
    expect(failed).toMatchObject({ kind: "http", status: 502 });
    expect(await aiError(client(base, "cli_z").generateText({ system: "s", user: "u" }))).toMatchObject({
      status: 404,
    });
    expect(
      await aiError(client(base, "cli_a", "wrong").generateText({ system: "s", user: "u" })),
    ).toMatchObject({
      status: 401,
    });
  });

  it("health says which tools are configured and runnable", async () => {
    const res = await fetch(`${base}/health`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const body = (await res.json()) as {
      providers: Record<string, { configured: boolean; available: boolean }>;
    };
    expect(body.providers.cli_a).toEqual({ configured: true, available: true });
    expect(body.providers.cli_c).toEqual({ configured: true, available: true });
  });

  it("a tool that hangs is killed at the time limit: 504", async () => {
    const slow = createBridge(
      { commands: { cli_a: ["node", fixture("hang")] }, token: TOKEN, timeoutMs: 400 },
      () => {},
    );
    const url = await listen(slow);
    try {
      const t0 = Date.now();
      const err = await aiError(client(url, "cli_a").generateText({ system: "s", user: "u" }));
      expect(err).toMatchObject({ kind: "http", status: 504 });
      expect(Date.now() - t0).toBeLessThan(4000);
      const health = (await (
        await fetch(`${url}/health`, { headers: { authorization: `Bearer ${TOKEN}` } })
      ).json()) as {
        providers: Record<string, { configured: boolean }>;
      };
      expect(health.providers.cli_b).toEqual({ configured: false, available: false });
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });

  it("configuration from the environment; commands split without a shell", () => {
    expect(splitCommand(`tool --model {model} "two words" 'x y' -`)).toEqual([
      "tool",
      "--model",
      "{model}",
      "two words",
      "x y",
      "-",
    ]);
    const cfg = configFromEnv({
      BRIDGE_CLI_B_CMD: "b-tool -q",
      BRIDGE_TOKEN: " t ",
      BRIDGE_TIMEOUT_SECONDS: "9",
    });
    expect(cfg).toEqual({
      commands: { cli_b: ["b-tool", "-q"] },
      models: {},
      token: "t",
      allowedHosts: [],
      timeoutMs: 9000,
    });
    expect(configFromEnv({}).timeoutMs).toBe(170_000);
  });
});
