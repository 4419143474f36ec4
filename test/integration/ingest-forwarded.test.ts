/**
 * Hand-forwarded alerts (issue 11): sender, date, subject and body come from the forwarded block
 * (Gmail, Outlook, Apple Mail layouts, HTML-only, forwards of forwards); the recipient stays the
 * outer envelope's. Through the upload door over HTTP and through ingestEmail with real D1/R2.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { ingestEmail } from "../../src/ingest";
import { call } from "../helpers/http";
import { buildMime, latin1Bytes } from "../fixtures/emails/builders";
import { allFailures, allTransactions, resetIngestTables, testDeps } from "../fixtures/emails/deps";

const E = env as unknown as Env;

const CIBC_ALERT = `Dear Carlos,
      You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $64.19 at SAVE-ON-FOODS #2281.
You can sign on to your CIBC Online or Mobile Banking to view more details about this transaction.
Sincerely,
CIBC`;

// Names no bank in its text: only the forwarded sender's domain can say it is RBC's.
const RBC_ALERT_NO_NAME = `Hello Carlos,
A purchase of $23.75 was made on October 15, 2024 towards CORNER BAKERY.
Thank you for banking with us.`;

/** The outer message: the person's own mailbox forwarding to the journal a day later. */
const outer = (body: string, o: Partial<Parameters<typeof buildMime>[0]> = {}) =>
  buildMime({
    from: "Carlos <carlos@gmail.example>",
    to: "journal@example.com",
    forwardedTo: "journal@example.com",
    subject: "Fwd: Transaction Alert",
    date: "Wed, 16 Oct 2024 09:05:00 -0700",
    body,
    ...o,
  });

const gmailBlock = (from: string, date: string, subject: string, body: string) => `FYI, for the budget.

---------- Forwarded message ---------
From: ${from}
Date: ${date}
Subject: ${subject}
To: <carlos@example.com>


${body}`;

async function viaUpload(raw: Uint8Array) {
  const form = new FormData();
  form.append("file", new File([raw], "fwd.eml", { type: "message/rfc822" }));
  return call("/api/v1/transactions/upload-eml", { method: "POST", rawBody: form });
}

describe("hand-forwarded alerts take sender, date and subject from the forwarded block", () => {
  beforeEach(() => resetIngestTables());

  it("Gmail: upload-eml stores the purchase time, the bank's sender and subject, not the forward's", async () => {
    const raw = outer(
      gmailBlock(
        "CIBC <mailbox.noreply@cibc.com>",
        "Tue, Oct 15, 2024 at 3:42\u202fPM",
        "Transaction Alert",
        CIBC_ALERT,
      ),
    );
    const res = await viaUpload(raw);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "created", amount: 64.19, company: "SAVE-ON-FOODS #2281" });
    expect(res.body.date_file_name).toMatch(/^2024\.10\.15_15\.42_/);
    const [row] = await allTransactions();
    expect(row).toMatchObject({
      Institution: "CIBC",
      Date: "10/15/2024 15:42 PDT",
      FromEmail: "mailbox.noreply@cibc.com",
      FromName: "CIBC",
      Subject: "Transaction Alert",
      // The recipient mapping is the outer envelope's, not the block's To: line.
      ForwardedTo: "journal@example.com",
      ToEmail: "journal@example.com",
    });
    // The body stored and parsed is the forwarded part only.
    expect(row!.Body.startsWith("Dear Carlos,")).toBe(true);
    expect(row!.Body).not.toContain("FYI");
  });

  it("the institution comes from the forwarded sender's domain", async () => {
    const raw = outer(
      gmailBlock(
        "RBC Royal Bank <notifications@rbc.com>",
        "Tue, Oct 15, 2024 at 11:07 AM",
        "Purchase alert",
        RBC_ALERT_NO_NAME,
      ),
    );
    const out = await ingestEmail(raw, testDeps());
    expect(out).toMatchObject({ status: "created" });
    const [row] = await allTransactions();
    expect(row).toMatchObject({
      Institution: "RBC",
      Company: "CORNER BAKERY",
      Amount: 23.75,
      Date: "10/15/2024 11:07 PDT",
      FromEmail: "notifications@rbc.com",
    });
  });

  it("Outlook: '-----Original Message-----' with Sent: is wall time in the configured zone", async () => {
    const body = `Please file this.

-----Original Message-----
From: CIBC [mailto:Mailbox.NoReply@cibc.com]
Sent: Tuesday, October 15, 2024 3:42 PM
To: Carlos <carlos@example.com>
Subject: Your CIBC purchase

${CIBC_ALERT}`;
    const out = await ingestEmail(outer(body), testDeps({ settings: { timezone: "America/Toronto" } }));
    expect(out.status).toBe("created");
    const [row] = await allTransactions();
    expect(row).toMatchObject({
      Date: "10/15/2024 15:42 EDT",
      FromEmail: "mailbox.noreply@cibc.com",
      FromName: "CIBC",
      Subject: "Your CIBC purchase",
    });
    expect(row!.DateFileName).toMatch(/^2024\.10\.15_15\.42_/);
  });

  it("Outlook without the marker line: a From/Sent/To/Subject block under a rule", async () => {
    const body = `See below.

________________________________
From: CIBC <mailbox.noreply@cibc.com>
Sent: Tuesday, 15 October 2024 09:10
To: carlos@example.com
Subject: Purchase

${CIBC_ALERT}`;
    await ingestEmail(outer(body), testDeps());
    const [row] = await allTransactions();
    expect(row).toMatchObject({ Date: "10/15/2024 09:10 PDT", Subject: "Purchase" });
  });

  it("Apple Mail: 'Begin forwarded message:', quoted lines stripped, a printed GMT offset honoured", async () => {
    const quoted = CIBC_ALERT.split("\n")
      .map((l) => `> ${l}`)
      .join("\n");
    const body = `Begin forwarded message:

> From: CIBC <mailbox.noreply@cibc.com>
> Subject: Transaction Alert
> Date: 15 October 2024 at 15:42:10 GMT-7
> To: Carlos <carlos@example.com>
>
${quoted}`;
    // The zone is printed, so it wins over the configured one: 15:42 at UTC-7 is 18:42 in Toronto.
    const out = await ingestEmail(outer(body), testDeps({ settings: { timezone: "America/Toronto" } }));
    expect(out).toMatchObject({ status: "created" });
    const [row] = await allTransactions();
    expect(row).toMatchObject({
      Date: "10/15/2024 18:42 EDT",
      FromEmail: "mailbox.noreply@cibc.com",
      Company: "SAVE-ON-FOODS #2281",
      Name: "Carlos",
    });
    expect(row!.Body).not.toMatch(/^>/m);
  });

  it("an HTML-only Gmail forward is read from its converted text", async () => {
    const html = [
      '<div dir="ltr">FYI<br><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">',
      "---------- Forwarded message ---------<br>",
      'From: <strong class="gmail_sendername" dir="auto">CIBC</strong> <span dir="auto">&lt;<a href="mailto:mailbox.noreply@cibc.com">mailbox.noreply@cibc.com</a>&gt;</span><br>',
      "Date: Tue, Oct 15, 2024 at 3:42\u202fPM<br>",
      "Subject: Transaction Alert<br>",
      'To: &lt;<a href="mailto:carlos@example.com">carlos@example.com</a>&gt;<br></div><br><br>',
      "<div><p>Dear Carlos,</p><p>You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $64.19 at SAVE-ON-FOODS #2281.</p><p>CIBC</p></div>",
      "</div></div>",
    ].join("\n");
    const raw = latin1Bytes(
      [
        "From: Carlos <carlos@gmail.example>",
        "To: journal@example.com",
        "Subject: Fwd: Transaction Alert",
        "Date: Wed, 16 Oct 2024 09:05:00 -0700",
        "Message-ID: <html-fwd@gmail.example>",
        "MIME-Version: 1.0",
        'Content-Type: text/html; charset="utf-8"',
        "Content-Transfer-Encoding: 8bit",
        "",
        String.fromCharCode(...new TextEncoder().encode(html)),
        "",
      ].join("\n"),
    );
    const res = await viaUpload(raw);
    expect(res.body).toMatchObject({ status: "created", company: "SAVE-ON-FOODS #2281" });
    const [row] = await allTransactions();
    expect(row).toMatchObject({
      Date: "10/15/2024 15:42 PDT",
      FromEmail: "mailbox.noreply@cibc.com",
      Subject: "Transaction Alert",
    });
  });

  it("a forward of a forward: the innermost block wins", async () => {
    const inner = `-----Original Message-----
From: CIBC <mailbox.noreply@cibc.com>
Sent: Monday, October 14, 2024 8:01 AM
To: carlos@example.com
Subject: Transaction Alert

${CIBC_ALERT}`;
    const middle = gmailBlock(
      "Ana <ana@example.org>",
      "Tue, Oct 15, 2024 at 6:00 PM",
      "FW: Transaction Alert",
      inner,
    );
    await ingestEmail(outer(middle), testDeps());
    const [row] = await allTransactions();
    expect(row).toMatchObject({
      Date: "10/14/2024 08:01 PDT",
      FromEmail: "mailbox.noreply@cibc.com",
      Subject: "Transaction Alert",
    });
  });

  it("a forwarded alert that cannot be read is quarantined with the block's details", async () => {
    const raw = outer(
      gmailBlock(
        "Alerts <alerts@tangerine.example>",
        "Tue, Oct 15, 2024 at 3:42 PM",
        "Transaction alert",
        "A purchase of $23.75 was charged to your account at CORNER BAKERY.",
      ),
    );
    const out = await ingestEmail(raw, testDeps());
    expect(out).toMatchObject({ status: "quarantined", failure_stage: "no_parser_match" });
    const [f] = await allFailures();
    expect(f).toMatchObject({
      from_email: "alerts@tangerine.example",
      subject: "Transaction alert",
      email_date: "10/15/2024 15:42 PDT",
      forwarded_to: "journal@example.com",
    });
    expect(JSON.parse(f!.detail).forwarded_by).toMatchObject({ fromEmail: "carlos@gmail.example" });
    // A retry from the raw in R2 reads the same forwarded block.
    const retry = await call(`/api/v1/parse-failures/${f!.id}/retry`, { method: "POST" });
    expect(retry.body).toMatchObject({ status: "still_failing", failure_stage: "no_parser_match" });
  });

  it("an alert quoting its own Date:/From: fields is not mistaken for a forward", async () => {
    const raw = buildMime({
      from: "CIBC <mailbox.noreply@cibc.com>",
      to: "carlos@example.com",
      date: "Tue, 15 Oct 2024 14:30:00 -0700",
      body: `${CIBC_ALERT}\n\nFrom: Costco World Mastercard\nDate: Oct 1, 2024 at 1:00 PM\nAmount: $64.19`,
    });
    await ingestEmail(raw, testDeps());
    const [row] = await allTransactions();
    expect(row).toMatchObject({ Date: "10/15/2024 14:30 PDT", FromEmail: "mailbox.noreply@cibc.com" });
    expect(await E.FILES.head(row!.FileName)).not.toBeNull();
  });
});
