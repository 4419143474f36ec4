import { describe, expect, it } from "vitest";
import { wallTimeIn } from "../../../src/ingest/dates";
import { parseForwardedDate } from "../../../src/ingest/forward-date";
import { innermostForwardBlock, printedSender, unwrapForward } from "../../../src/ingest/forwarded";
import { emptyEmail } from "../../../src/ingest/mime";

const LA = "America/Los_Angeles";
const iso = (s: string, tz = LA) => parseForwardedDate(s, tz)?.toISOString() ?? null;

describe("forwarded block dates", () => {
  it.each([
    ["Tue, Oct 15, 2024 at 3:42 PM", "2024-10-15T22:42:00.000Z"],
    ["Tue, Oct 15, 2024 at 3:42\u202fPM", "2024-10-15T22:42:00.000Z"],
    ["Tuesday, October 15, 2024 3:42 PM", "2024-10-15T22:42:00.000Z"],
    ["Tuesday, October 15, 2024 3:42:10 p.m.", "2024-10-15T22:42:10.000Z"],
    ["Tuesday, 15 October 2024 15:42", "2024-10-15T22:42:00.000Z"],
    ["15 Oct 2024, 15:42", "2024-10-15T22:42:00.000Z"],
    ["2024-10-15 15:42", "2024-10-15T22:42:00.000Z"],
    ["10/15/2024 3:42 PM", "2024-10-15T22:42:00.000Z"],
    ["Tue, Oct 15, 2024 at 12:05 AM", "2024-10-15T07:05:00.000Z"],
    ["Tue, Oct 15, 2024 at 12:05 PM", "2024-10-15T19:05:00.000Z"],
  ])("naive %s is wall time in the configured zone", (text, want) => expect(iso(text)).toBe(want));

  it.each([
    ["15 October 2024 at 15:42:10 GMT-7", "2024-10-15T22:42:10.000Z"],
    ["October 15, 2024 at 3:42:10 PM PDT", "2024-10-15T22:42:10.000Z"],
    ["Tue, 15 Oct 2024 15:42:10 -0700", "2024-10-15T22:42:10.000Z"],
    ["15 October 2024 at 15:42:10 GMT+5:30", "2024-10-15T10:12:10.000Z"],
    ["Tuesday, October 15, 2024 3:42 PM UTC", "2024-10-15T15:42:00.000Z"],
  ])("%s honours its printed zone, whatever the configured one", (text, want) =>
    expect(iso(text, "Europe/Paris")).toBe(want),
  );

  it("the configured zone decides a naive time, DST included", () => {
    expect(iso("Tue, Oct 15, 2024 at 3:42 PM", "America/Toronto")).toBe("2024-10-15T19:42:00.000Z");
    expect(iso("Tue, Jan 14, 2025 at 3:42 PM")).toBe("2025-01-14T23:42:00.000Z");
  });

  it("impossible or missing dates give null", () => {
    for (const s of [
      "",
      "soon",
      "Feb 30, 2024 at 1:00 PM",
      "Oct 15, 2024 at 13:42 PM",
      "Oct 2024 at 3:42 PM",
    ]) {
      expect(iso(s)).toBeNull();
    }
  });

  it("wallTimeIn: a spring-forward gap reads forward, a fall-back overlap takes the earlier instant", () => {
    const w = { year: 2024, month: 3, day: 10, hour: 2, minute: 30, second: 0 };
    expect(wallTimeIn(w, LA).toISOString()).toBe("2024-03-10T10:30:00.000Z");
    expect(wallTimeIn({ ...w, month: 11, day: 3, hour: 1 }, LA).toISOString()).toBe(
      "2024-11-03T08:30:00.000Z",
    );
  });
});

describe("forwarded block layout", () => {
  it("printed senders in the clients' forms", () => {
    expect(printedSender("RBC Royal Bank <notifications@rbc.com>")).toEqual({
      name: "RBC Royal Bank",
      address: "notifications@rbc.com",
    });
    expect(printedSender("RBC [mailto:Notifications@RBC.com]")).toEqual({
      name: "RBC",
      address: "notifications@rbc.com",
    });
    expect(printedSender('"RBC" <a@rbc.com>')).toEqual({ name: "RBC", address: "a@rbc.com" });
    expect(printedSender("*RBC* <a@rbc.com>")).toEqual({ name: "RBC", address: "a@rbc.com" });
    expect(printedSender("a@rbc.com")).toEqual({ name: "", address: "a@rbc.com" });
  });

  it("any dashed marker wording, header order and bold labels", () => {
    const text = `-------- Forwarded Message --------
*Subject:* Alert
*Date:* Tue, 15 Oct 2024 15:42:10 -0700
*From:* Bank <a@bank.example>
*To:* me@example.com

Body here`;
    const b = innermostForwardBlock(text)!;
    expect(b.headers.get("from")).toBe("Bank <a@bank.example>");
    expect(b.headers.get("subject")).toBe("Alert");
    expect(b.body).toBe("Body here");
  });

  it("an unmarked block needs sender, date and subject and must start a paragraph", () => {
    const block =
      "From: Bank <a@bank.example>\nSent: Tuesday, October 15, 2024 3:42 PM\nTo: me@x\nSubject: Alert\n\nBody";
    expect(innermostForwardBlock(`Note\n\n${block}`)?.body).toBe("Body");
    expect(innermostForwardBlock(`Note\n${block}`)).toBeNull();
    expect(innermostForwardBlock("Note\n\nFrom: JOHN DOE\nDate: Oct 15, 2024\nAmount: $5.00")).toBeNull();
  });

  it("a header row split from the next by a blank line (HTML rendering) is still one block", () => {
    const text =
      "Begin forwarded message:\n\nFrom: Bank <a@bank.example>\n\nSubject: Alert\n\nDate: October 15, 2024 at 3:42 PM\n\nBody";
    const b = innermostForwardBlock(text)!;
    expect([...b.headers.keys()]).toEqual(["from", "subject", "date"]);
    expect(b.body).toBe("Body");
  });

  it("quoted forwards lose one quoting level per unwrapped block", () => {
    const text = `Begin forwarded message:

> From: Me <me@x.example>
> Subject: Fwd: Alert
> Date: October 16, 2024 at 9:00 AM
>
> Begin forwarded message:
>
> > From: Bank <a@bank.example>
> > Subject: Alert
> > Date: October 15, 2024 at 3:42 PM
> >
> > Line one
> > > kept quote`;
    const b = innermostForwardBlock(text)!;
    expect(b.headers.get("from")).toBe("Bank <a@bank.example>");
    expect(b.body).toBe("Line one\n> kept quote");
  });

  it("unwrapForward keeps the recipient and records who forwarded it", () => {
    const email = {
      ...emptyEmail(),
      fromEmail: "me@x.example",
      toEmail: "journal@example.com",
      forwardedTo: "journal@example.com",
      subject: "Fwd: Alert",
      dateHeader: "Wed, 16 Oct 2024 09:00:00 -0700",
      text: "---------- Forwarded message ---------\nFrom: Bank <a@bank.example>\nDate: Tue, Oct 15, 2024 at 3:42 PM\nSubject: Alert\nTo: <me@x.example>\n\n\nBody",
    };
    const out = unwrapForward(email, LA);
    expect(out).toMatchObject({
      fromEmail: "a@bank.example",
      fromName: "Bank",
      subject: "Alert",
      dateHeader: "Tue, 15 Oct 2024 22:42:00 +0000",
      toEmail: "journal@example.com",
      forwardedTo: "journal@example.com",
      text: "Body",
      forwardedBy: { fromEmail: "me@x.example", printedDate: "Tue, Oct 15, 2024 at 3:42 PM" },
    });
    // Unwrapping is idempotent (a replay of a stored, already unwrapped email changes nothing).
    expect(unwrapForward(out, LA)).toBe(out);
    const plain = { ...email, text: "Just an alert" };
    expect(unwrapForward(plain, LA)).toBe(plain);
  });
});
