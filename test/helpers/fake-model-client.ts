/** Test-side handle on the fake model server (runs inside workerd; talks to it over HTTP). */
import { inject } from "vitest";
import { HostedProvider } from "../../src/ai/hosted";
import type { Behaviour } from "./fake-model";

export type { Behaviour } from "./fake-model";

declare module "vitest" {
  export interface ProvidedContext {
    modelServer: { url: string };
  }
}

export function modelServerUrl(): string | null {
  try {
    return inject("modelServer")?.url ?? null;
  } catch {
    return null;
  }
}

export interface FakeModel {
  key: string;
  provider: HostedProvider;
  /** Base URL whose requests are recorded under this key (for notification providers). */
  sinkBase: string;
  script(queue: Behaviour[], embeddings?: Record<string, number[]>): Promise<void>;
  calls(): Promise<{ path: string; body: any }[]>;
}

/** A provider with its own script key; `timeoutMs` keeps "slow" behaviours short. */
export async function fakeModel(opts: { timeoutMs?: number; model?: string } = {}): Promise<FakeModel> {
  const url = modelServerUrl();
  if (!url) throw new Error("fake model server not provided (globalSetup test/setup/global-model.ts)");
  const key = `test-${crypto.randomUUID()}`;
  const provider = new HostedProvider({
    apiKey: key,
    baseURL: `${url}/v1`,
    model: opts.model ?? "fake-chat",
    embeddingModel: "fake-embed",
    timeoutMs: opts.timeoutMs ?? 2_000,
    maxRetries: 0,
  });
  const post = (body: unknown) =>
    fetch(`${url}/__script`, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json" },
    });
  await post({ key, queue: [] });
  return {
    key,
    provider,
    sinkBase: `${url}/__sink/${key}`,
    async script(queue, embeddings = {}) {
      await post({ key, queue, embeddings });
    },
    async calls() {
      const res = await fetch(`${url}/__calls?key=${encodeURIComponent(key)}`);
      return ((await res.json()) as { calls: { path: string; body: any }[] }).calls;
    },
  };
}
