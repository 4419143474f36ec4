import { describe, expect, it } from "vitest";
import { parseMime } from "../../../src/ingest/mime";
import { buildMime, latin1Bytes } from "../../fixtures/emails/builders";

const BODY = "Hello Dana,\nA purchase of $42.10 was made at CAFÉ OLÉ #12 with your card.\n\nThanks,\nRBC";

describe("parseMime", () => {
  it("reads from, to, forwarded-to, subject, date and the text body", async () => {
    const e = await parseMime(
      buildMime({
        from: '"RBC Alerts" <Notify@RBC.com>',
        to: "Person <Me@Example.com>",
        forwardedTo: "fwd@Example.com",
        subject: "Purchase alert",
        date: "Tue, 15 Oct 2024 14:30:00 PDT",
        messageId: "<abc@x>",
        body: BODY,
      }),
    );
    expect(e).toMatchObject({
      fromName: "RBC Alerts",
      fromEmail: "notify@rbc.com",
      toEmail: "me@example.com",
      forwardedTo: "fwd@example.com",
      subject: "Purchase alert",
      dateHeader: "Tue, 15 Oct 2024 14:30:00 PDT",
      messageId: "<abc@x>",
    });
    expect(e.text).toContain("CAFÉ OLÉ #12");
  });

  it("forwarded-to precedence: X-Forwarded-To, Delivered-To, X-Original-To, then To", async () => {
    const only = (headers: Record<string, string>) =>
      parseMime(buildMime({ to: "to@x.com", forwardedTo: null, body: "x", extraHeaders: headers }));
    expect((await only({})).forwardedTo).toBe("to@x.com");
    expect((await only({ "X-Original-To": "orig@x.com" })).forwardedTo).toBe("orig@x.com");
    expect((await only({ "X-Original-To": "orig@x.com", "Delivered-To": "del@x.com" })).forwardedTo).toBe(
      "del@x.com",
    );
    const all = await parseMime(
      buildMime({
        to: "to@x.com",
        forwardedTo: "FWD@x.com",
        body: "x",
        extraHeaders: { "Delivered-To": "del@x.com" },
      }),
    );
    expect(all.forwardedTo).toBe("fwd@x.com");
  });

  it.each(["quoted-printable", "base64", "8bit"] as const)("decodes %s bodies", async (encoding) => {
    const e = await parseMime(buildMime({ body: BODY, encoding }));
    expect(e.text).toContain("A purchase of $42.10 was made at CAFÉ OLÉ #12");
  });

  it("decodes non-UTF-8 charsets", async () => {
    for (const charset of ["iso-8859-1", "windows-1252"] as const) {
      const e = await parseMime(buildMime({ body: BODY, charset, encoding: "8bit" }));
      expect(e.text).toContain("CAFÉ OLÉ #12");
    }
  });

  it("renders HTML-only mail as text without tags, styles or entities", async () => {
    const e = await parseMime(
      buildMime({ body: "Tom & Jerry's <b>deal</b>\nspent $5.00 at A&W", shape: "html" }),
    );
    expect(e.text).not.toMatch(/<p|<td|<\/p|<br|&amp;|&lt;|color:/);
    expect(e.text).toContain("Tom & Jerry's <b>deal</b>");
    expect(e.text).toContain("spent $5.00 at A&W");
  });

  it("prefers the text part of multipart/alternative", async () => {
    const e = await parseMime(buildMime({ body: BODY, shape: "alternative", encoding: "quoted-printable" }));
    expect(e.text.trim().startsWith("Hello Dana,")).toBe(true);
    expect(e.text).not.toContain("<p");
  });

  it("CRLF mail leaves no carriage returns", async () => {
    const e = await parseMime(buildMime({ body: BODY, crlf: true }));
    expect(e.text).not.toContain("\r");
    expect(e.subject).not.toContain("\r");
  });

  it("never throws on garbage", async () => {
    const inputs: (Uint8Array | string)[] = [
      "",
      "not an email at all",
      new Uint8Array([0, 1, 2, 255, 254, 10, 10, 0]),
      latin1Bytes("Content-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: text/plain\n\ntruncated"),
      "From: \nTo: <<<>>>\nDate: yesterday\nContent-Transfer-Encoding: base64\n\n@@@@not base64@@@@",
    ];
    for (const raw of inputs) {
      const e = await parseMime(raw);
      expect(typeof e.text).toBe("string");
      expect(typeof e.fromEmail).toBe("string");
    }
  });
});
