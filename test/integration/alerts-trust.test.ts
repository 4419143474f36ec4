// Issue 26 finding 6 (a forged forward is trusted) and issue 27 point 4 (the printed currency):
// a forwarded alert from an address the owner never vouched for still becomes its transaction but
// waits on the attention queue with the reason in words; confirming it makes the address known;
// a bank message the receiving server says failed authentication is quarantined, not read.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { routeEmail } from "../../src/ingest/sources/email-routing";
import { resetAlertTables, upload } from "../fixtures/alerts/helpers";
import { buildMime } from "../fixtures/emails/builders";
import { call } from "../helpers/http";

const E = env as unknown as Env;

const FAKE_CIBC = `Dear Carlos,
      You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $999.99 at TOTALLY LEGIT ELECTRONICS.
Sincerely,
CIBC`;

/** mallory@evil.example "forwards" a CIBC alert she wrote herself. */
const forgedForward = (from = "Mallory <mallory@evil.example>", id = "fwd-1", auth?: string) =>
  buildMime({
    ...(auth ? { extraHeaders: { "Authentication-Results": auth } } : {}),
    from,
    to: "journal@example.com",
    forwardedTo: "journal@example.com",
    subject: "Fwd: Transaction alert",
    date: "Wed, 16 Oct 2024 09:05:00 -0700",
    messageId: `<${id}@evil.example>`,
    body: `---------- Forwarded message ---------
From: CIBC <mailbox.noreply@cibc.com>
Date: Tue, Oct 15, 2024 at 11:07 AM
Subject: Transaction alert
To: <carlos@example.com>

${FAKE_CIBC}`,
  });

const message = (raw: Uint8Array, from: string) => ({
  from,
  to: "journal@example.com",
  raw: new Response(raw).body!,
});

async function attention() {
  const res = await call("/api/v1/transactions/attention?month=2024-10");
  expect(res.status, res.text).toBe(200);
  return res.body.transactions as any[];
}

beforeEach(resetAlertTables);

/** Cloudflare's own verdict on a message Sam really sent from home.example. */
const SAM_PASSES =
  "mx.cloudflare.net; dkim=pass header.d=home.example; spf=pass smtp.mailfrom=sam@home.example; dmarc=pass header.from=home.example";

describe("forwarded alerts are trusted only from known forwarding addresses", () => {
  it("mallory@evil.example's fake CIBC alert is flagged with the reason in words", async () => {
    const out = await routeEmail(message(forgedForward(), "mallory@evil.example"), E);
    expect(out?.status).toBe("created");
    const rows = await attention();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 999.99, institution: "CIBC", needs_attention: true });
    expect(rows[0].extraction_audit.notes).toContain(
      "Forwarded by mallory@evil.example, not one of your forwarding addresses.",
    );
  });

  it("confirming the row makes the address known: its next forward is not flagged", async () => {
    await routeEmail(
      message(forgedForward("Sam <sam@home.example>", "a", SAM_PASSES), "sam@home.example"),
      E,
    );
    const [row] = await attention();
    const ok = await call(`/api/v1/transactions/${row.tx_id}`, { method: "PATCH", body: { reviewed: true } });
    expect(ok.status, ok.text).toBe(200);
    expect(await attention()).toHaveLength(0);
    const trusted = await E.DB.prepare("SELECT address, kind FROM sender_trust").all();
    expect(trusted.results).toEqual([{ address: "sam@home.example", kind: "forwarder" }]);

    const next = forgedForward("Sam <sam@home.example>", "b", SAM_PASSES).map((b) => b);
    const text = new TextDecoder().decode(next).replace("999.99", "12.34");
    const out = await routeEmail(message(new TextEncoder().encode(text), "sam@home.example"), E);
    expect(out?.status).toBe("created");
    expect(await attention()).toHaveLength(0);
  });

  it("a configured forwarding address is trusted from the start", async () => {
    const put = await call("/api/v1/config", {
      method: "PUT",
      body: { forwarding_addresses: ["sam@home.example"] },
    });
    expect(put.status, put.text).toBe(200);
    await routeEmail(
      message(forgedForward("Sam <sam@home.example>", "c", SAM_PASSES), "sam@home.example"),
      E,
    );
    expect(await attention()).toHaveLength(0);
  });

  // Issue 35 finding 3: trust comes only from what the receiving side added, never the sender's headers.
  describe("a forged forward naming the configured address is flagged", () => {
    const configure = async () => {
      const put = await call("/api/v1/config", {
        method: "PUT",
        body: { forwarding_addresses: ["sam@home.example"] },
      });
      expect(put.status, put.text).toBe(200);
    };
    const flagged = async (words: RegExp) => {
      const rows = await attention();
      expect(rows).toHaveLength(1);
      expect(rows[0].extraction_audit.notes.join(" ")).toMatch(words);
    };

    it("a spoofed outer From: the receiver says DMARC failed and the envelope is Mallory's", async () => {
      await configure();
      const auth =
        "mx.cloudflare.net; dkim=none; spf=pass smtp.mailfrom=evil.example; dmarc=fail header.from=home.example";
      const out = await routeEmail(
        message(forgedForward("Sam <sam@home.example>", "s1", auth), "mallory@evil.example"),
        E,
      );
      expect(out?.status).toBe("created");
      await flagged(/Forwarded as sam@home\.example, but the receiving server did not confirm that sender/);
    });

    it("a spoofed From with no verdict of the receiver at all (a forged one further down is not it)", async () => {
      await configure();
      const raw = new TextDecoder()
        .decode(forgedForward("Sam <sam@home.example>", "s2"))
        .replace(
          "From: Sam",
          "Authentication-Results: mx.cloudflare.net; dmarc=pass header.from=home.example\nFrom: Sam",
        );
      // The receiver's own verdict is prepended on top: the sender's forged one sits below it.
      const received = `Authentication-Results: mx.cloudflare.net; spf=fail smtp.mailfrom=home.example; dmarc=fail header.from=home.example\n${raw}`;
      await routeEmail(message(new TextEncoder().encode(received), "sam@home.example"), E);
      await flagged(/did not confirm that sender/);
    });

    it("a From list that starts with the configured address", async () => {
      await configure();
      const out = await routeEmail(
        message(
          forgedForward("sam@home.example, Mallory <mallory@evil.example>", "s3", SAM_PASSES),
          "sam@home.example",
        ),
        E,
      );
      expect(out?.status).toBe("created");
      await flagged(/did not confirm that sender/);
    });
  });

  it("the signed-in owner's upload is trusted as before", async () => {
    const res = await upload(new TextDecoder().decode(forgedForward()));
    expect(res.body.status).toBe("created");
    expect(await attention()).toHaveLength(0);
  });
});

describe("authentication results of the bank's own message", () => {
  const direct = (auth: string) =>
    buildMime({
      from: "CIBC <mailbox.noreply@cibc.com>",
      to: "journal@example.com",
      body: FAKE_CIBC,
      extraHeaders: { "Authentication-Results": auth },
    });

  it("a failing verdict quarantines the alert instead of reading it", async () => {
    const out = await routeEmail(
      message(
        direct("mx.cloudflare.net; dkim=fail header.d=cibc.com; spf=fail smtp.mailfrom=cibc.com; dmarc=fail"),
        "x@cibc.com",
      ),
      E,
    );
    expect(out).toMatchObject({ status: "quarantined", failure_stage: "authentication_failed" });
    const pf = await call(`/api/v1/parse-failures/${(out as any).id}`);
    expect(pf.body.error).toMatch(/failed authentication/);
    expect((await call("/api/v1/transactions?month=2024-10")).body.count).toBe(0);
  });

  it("after automatic forwarding, the first ARC hop's verdict decides when a listed sealer sealed it", async () => {
    const put = await call("/api/v1/config", {
      method: "PUT",
      body: { arc_trusted_sealers: ["gmail.example"] },
    });
    expect(put.status, put.text).toBe(200);
    const forwarded = (arc: string) =>
      buildMime({
        from: "CIBC <mailbox.noreply@cibc.com>",
        to: "journal@example.com",
        body: FAKE_CIBC,
        messageId: `<arc-${arc.length}@cibc.com>`,
        extraHeaders: {
          // The last hop (the owner's mailbox forwarding it on) breaks SPF; the first judged the bank's.
          "Authentication-Results":
            "mx.cloudflare.net; dkim=none; spf=fail smtp.mailfrom=gmail.example; dmarc=fail; arc=pass",
          "ARC-Seal": "i=1; a=rsa-sha256; cv=none; d=gmail.example; s=arc; b=AAAA",
          "ARC-Authentication-Results": `i=1; mx.gmail.example; ${arc}`,
        },
      });
    const ok = await routeEmail(
      message(forwarded("dkim=pass header.d=cibc.com; spf=pass; dmarc=pass"), "x@gmail.example"),
      E,
    );
    expect(ok?.status).toBe("created");
    const bad = await routeEmail(message(forwarded("dkim=fail; spf=fail; dmarc=fail"), "x@gmail.example"), E);
    expect(bad).toMatchObject({ status: "quarantined", failure_stage: "authentication_failed" });
  });

  // Issue 35 finding 3: a forged ARC verdict above the receiver's failure does not rescue it.
  it("a forged ARC-Authentication-Results (i=0, or an unlisted sealer) never overrides the receiver", async () => {
    const forged = (id: string, headers: Record<string, string>) =>
      buildMime({
        from: "CIBC <mailbox.noreply@cibc.com>",
        to: "journal@example.com",
        body: FAKE_CIBC,
        messageId: `<${id}@cibc.com>`,
        extraHeaders: headers,
      });
    const receiver =
      "mx.cloudflare.net; dkim=fail header.d=cibc.com; spf=fail smtp.mailfrom=cibc.com; dmarc=fail";
    const zero = forged("arc0", {
      "ARC-Authentication-Results": "i=0; mx.cibc.com; dkim=pass; spf=pass; dmarc=pass",
      "Authentication-Results": receiver,
    });
    const unlisted = forged("arc1", {
      "Authentication-Results": `${receiver}; arc=pass`,
      "ARC-Seal": "i=1; a=rsa-sha256; cv=none; d=evil.example; s=arc; b=AAAA",
      "ARC-Authentication-Results": "i=1; mx.evil.example; dkim=pass; spf=pass; dmarc=pass",
    });
    for (const raw of [zero, unlisted]) {
      const out = await routeEmail(message(raw, "x@cibc.com"), E);
      expect(out).toMatchObject({ status: "quarantined", failure_stage: "authentication_failed" });
    }
    expect((await call("/api/v1/transactions?month=2024-10")).body.count).toBe(0);
  });

  it("a passing verdict reads it as before", async () => {
    const out = await routeEmail(
      message(direct("mx.cloudflare.net; dkim=pass header.d=cibc.com; spf=pass; dmarc=pass"), "x@cibc.com"),
      E,
    );
    expect(out?.status).toBe("created");
  });
});

describe("the currency printed beside the amount", () => {
  const cibc = (amount: string, subject = "Transaction alert") =>
    buildMime({
      from: "CIBC <mailbox.noreply@cibc.com>",
      to: "journal@example.com",
      subject,
      body: `Dear Carlos,
      You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for ${amount} at SAVE-ON-FOODS #2281.
CIBC`,
    });

  it("is kept in the extraction audit; the journal's own currency is not flagged", async () => {
    const out = await routeEmail(message(cibc("$64.19"), "mailbox.noreply@cibc.com"), E);
    expect(out?.status).toBe("created");
    const list = await call("/api/v1/transactions?month=2024-10");
    // A bare $ names no single currency: kept as printed, the journal's currency settles it.
    expect(list.body.transactions[0].extraction_audit).toMatchObject({
      currency: null,
      currency_printed: "$",
    });
    expect(await attention()).toHaveLength(0);
  });

  it("another currency sends the row to the attention queue with the reason in words", async () => {
    // The alert prints the amount with a bare $; its subject names the currency.
    const out = await routeEmail(
      message(cibc("$64.19", "Foreign purchase: US$ 64.19"), "mailbox.noreply@cibc.com"),
      E,
    );
    expect(out?.status, JSON.stringify(out)).toBe("created");
    const [row] = await attention();
    expect(row.extraction_audit).toMatchObject({ currency: "USD", currency_printed: "US$" });
    expect(row.extraction_audit.notes[0]).toBe(`Printed in USD ("US$ 64.19"), not the journal's CAD.`);
  });

  it("follows the journal's currency setting", async () => {
    await call("/api/v1/config", { method: "PUT", body: { journal_currency: "USD" } });
    const out = await routeEmail(
      message(cibc("$64.19", "Foreign purchase: US$ 64.19"), "mailbox.noreply@cibc.com"),
      E,
    );
    expect(out?.status).toBe("created");
    expect(await attention()).toHaveLength(0);
  });
});
