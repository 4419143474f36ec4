import { describe, expect, it } from "vitest";
import { detectInstitution, INSTITUTIONS, parseAlert } from "../../../../src/ingest/institutions";

const nameOf = (from: string | null, body = "") => detectInstitution(from, body)?.name ?? null;

describe("institution registry", () => {
  it("lists the five institutions in the fixed body-scan order", () => {
    expect(INSTITUTIONS.map((i) => i.name)).toEqual(["RBC", "Simplii", "CIBC", "MBNA", "PC Financial"]);
  });
});

describe("phase 1: sender domain", () => {
  it.each([
    ["alerts@rbc.com", "RBC"],
    ["RBC Royal Bank <noreply@rbcroyalbank.com>", "RBC"],
    ["mailbox@cibc.com", "CIBC"],
    ["alerts@mbna.ca", "MBNA"],
    ['"PC Financial" <alerts@pcfinancial.ca>', "PC Financial"],
  ])("%s -> %s", (from, expected) => {
    expect(nameOf(from)).toBe(expected);
  });

  it("matches alert subdomains to their parent, case-insensitively", () => {
    expect(nameOf("notify@alerts.rbc.com")).toBe("RBC");
    expect(nameOf("x@click.alerts.RBC.com")).toBe("RBC");
    expect(nameOf("Alerts <info@mail.CIBC.com>")).toBe("CIBC");
  });

  it("does not match a domain that merely ends with the same letters", () => {
    expect(nameOf("a@notrbc.com")).toBeNull();
    expect(nameOf("a@rbc.com.evil.example")).toBeNull();
  });

  it("lets the domain win over a body naming another bank", () => {
    expect(nameOf("alerts@mbna.ca", "Your CIBC card")).toBe("MBNA");
  });

  it("lists no sender domain for Simplii: SPEC makes it reachable by body text only", () => {
    expect(INSTITUTIONS.find((i) => i.name === "Simplii")!.domains).toEqual([]);
    expect(nameOf("notify@payments.interac.ca", "on behalf of Simplii Financial.")).toBe("Simplii");
  });
});

describe("Interac sender domain is not in the map", () => {
  it("no institution lists interac.ca or a subdomain of it", () => {
    for (const inst of INSTITUTIONS) {
      for (const d of inst.domains) expect(d.endsWith("interac.ca")).toBe(false);
    }
    expect(nameOf("notify@payments.interac.ca")).toBeNull();
    expect(nameOf("catch@interac.ca", "")).toBeNull();
  });

  it("lets the body decide for Interac mail", () => {
    expect(nameOf("notify@payments.interac.ca", "on behalf of RBC Royal Bank.")).toBe("RBC");
    expect(nameOf("notify@payments.interac.ca", "on behalf of Simplii Financial.")).toBe("Simplii");
    const { institution, fields } = parseAlert(
      "Interac e-Transfer <notify@payments.interac.ca>",
      "Hi Jo,\n\nThe $40 (CAD) you sent to SAM LEE has been successfully deposited.\n\nReference Number: C1AB\n\non behalf of Simplii Financial.",
    );
    expect(institution).toBe("Simplii");
    expect(fields).toEqual({
      amount: 4000,
      company: "SAM LEE | C1AB",
      name: "Jo",
      transaction_type: "e-transfer",
    });
  });
});

describe("phase 2: body scan", () => {
  it.each([
    ["Your CIBC Costco World Mastercard", "CIBC"],
    ["your MBNA Mastercard card ending in 1234", "MBNA"],
    ["The PC Financial team", "PC Financial"],
    ["sent by President's Choice Bank", "PC Financial"],
    ["RBC Royal Bank | Royal Bank of Canada", "RBC"],
    ["https://click.alerts.rbc.com/?qs=1", "RBC"],
    ["deposited into your bank account at Simplii Financial", "Simplii"],
  ])("%s -> %s", (body, expected) => {
    expect(nameOf(null, body)).toBe(expected);
    expect(nameOf("someone@unknown.example", body)).toBe(expected);
  });

  it("takes the earlier institution in the fixed order when several are named", () => {
    expect(nameOf(null, "at Simplii Financial ... on behalf of JO at RBC Royal Bank")).toBe("RBC");
    expect(nameOf(null, "on behalf of JO at CIBC, into your account at Simplii Financial")).toBe("Simplii");
  });
});

describe("unknown", () => {
  it.each([
    [null, ""],
    ["", "hello there"],
    ["not an address", "Your card was used"],
    ["friend@example.com", "A purchase of $5.00 from SHOP was made on your card"],
  ])("from=%s body=%s -> null", (from, body) => {
    expect(detectInstitution(from, body)).toBeNull();
    expect(parseAlert(from, body)).toEqual({
      institution: null,
      fields: { amount: null, company: null, name: null, transaction_type: null },
    });
  });
});
