// Connecting an assistant through OAuth in the browser: an app registers (RFC 7591) and sends the
// owner to the consent page; the page is read at 1280 and 390 px (app name, where access goes, the
// two choices), Allow returns to the app with a code that the token endpoint exchanges (PKCE S256);
// Settings → Connected apps lists the app, and Disconnect ends its access (the next /mcp call 401).
import { createHash, randomBytes } from "node:crypto";
import { assert, hasText, until, signedIn, PASSWORD } from "./helpers.mjs";

const APP = "E2E Assistant";
const CALLBACK = "https://assistant.example/callback";
const b64url = (buf) => buf.toString("base64url");

/** The consent page needs a password session: set the password when none is set yet, else sign in. */

async function authorizeUrl(t) {
  const reg = await t.page.request.post(`${t.base}/oauth/register`, {
    data: { client_name: APP, redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" },
  });
  assert.equal(reg.status(), 201, `registration: ${reg.status()} ${await reg.text()}`);
  const client = await reg.json();
  const verifier = b64url(randomBytes(32));
  const url = new URL(`${t.base}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: CALLBACK,
    scope: "read write",
    state: "e2e-state",
    code_challenge: b64url(createHash("sha256").update(verifier).digest()),
    code_challenge_method: "S256",
    resource: `${t.base}/mcp`,
  }).toString();
  return { url: url.href, client, verifier };
}

export const steps = [
  {
    name: "the consent page says which app, where access goes and what it may do (1280 and 390 px)",
    async run(t) {
      const { page } = t;
      page.setDefaultTimeout(30_000);
      await signedIn(t);
      const flow = await authorizeUrl(t);
      t.state.flow = flow;
      const res = await page.goto(flow.url);
      assert.equal(res.status(), 200);
      assert.equal(res.headers()["x-frame-options"], "DENY");
      await hasText(page.getByTestId("client-name"), APP);
      await hasText(page.getByTestId("redirect-host"), "assistant.example");
      assert.ok(await page.getByLabel("read and change your journal").isChecked(), "write was asked for");
      await page.getByLabel("read your journal", { exact: true }).waitFor();
      await t.shot("oauth-consent");
      assert.deepEqual(t.overflow, [], "the consent page fits a 390px phone");
    },
  },
  {
    name: "Allow returns to the app with a code; the code and verifier give tokens that reach /mcp",
    async run(t) {
      const { page } = t;
      const { flow } = t.state;
      await page.route("https://assistant.example/**", (route) =>
        route.fulfill({ status: 200, contentType: "text/plain", body: "back at the app" }),
      );
      await page.getByRole("button", { name: "Allow" }).click();
      await until(async () => page.url().startsWith(CALLBACK), "redirect to the app", 15_000);
      const back = new URL(page.url());
      assert.equal(back.searchParams.get("state"), "e2e-state");
      const code = back.searchParams.get("code");
      assert.ok(code, "a code");
      const tok = await page.request.post(`${t.base}/oauth/token`, {
        form: {
          grant_type: "authorization_code",
          code,
          redirect_uri: CALLBACK,
          client_id: flow.client.client_id,
          code_verifier: flow.verifier,
          resource: `${t.base}/mcp`,
        },
      });
      assert.equal(tok.status(), 200, await tok.text());
      const tokens = await tok.json();
      assert.deepEqual(tokens.scope.split(" ").sort(), ["read", "write"]);
      t.state.access = tokens.access_token;
      const mcp = await mcpCall(t);
      assert.equal(mcp, 200, "the token reaches /mcp");
    },
  },
  {
    name: "Settings → Connected apps lists the app; Disconnect ends its access at once",
    async run(t) {
      const { page } = t;
      await page.goto(`${t.base}/settings#connected-apps`);
      const row = page.getByTestId("app-row").filter({ hasText: APP });
      await row.waitFor();
      await hasText(row, "read + write");
      await hasText(row, "last used");
      await row.scrollIntoViewIfNeeded();
      await t.shot("oauth-connected-apps");
      await row.getByRole("button", { name: `Disconnect ${APP}` }).click();
      await until(
        async () => (await page.getByTestId("app-row").filter({ hasText: APP }).count()) === 0,
        "row gone",
      );
      assert.equal(await mcpCall(t), 401, "a disconnected app gets 401");
    },
  },
  {
    name: "signed out: the consent link goes through the sign-in page and comes back to it",
    async run(t) {
      const { page } = t;
      const flow = await authorizeUrl(t);
      await t.context.clearCookies();
      await page.goto(flow.url);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await until(
        async () => page.url().startsWith(`${t.base}/oauth/authorize?`),
        "back at the consent page",
        15_000,
      );
      await hasText(page.getByTestId("client-name"), APP);
    },
  },
];

async function mcpCall(t) {
  const res = await t.page.request.post(`${t.base}/mcp`, {
    headers: {
      authorization: `Bearer ${t.state.access}`,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
    },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
  });
  return res.status();
}
