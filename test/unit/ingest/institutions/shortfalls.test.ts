import { describe, expect, it } from "vitest";
import { INSTITUTIONS, parseAlert, parseETransfer } from "../../../../src/ingest/institutions";

/** Each case is a place where the reference implementation fell short (tidings README). */

const bank = (name: string) => INSTITUTIONS.find((i) => i.name === name)!;
const cibc = (greeting: string, tail: string) =>
  `Dear ${greeting},\n      You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for $12.00 at ${tail}\nYou can sign on to your CIBC Online or Mobile Banking.Sincerely,\nCIBC`;

describe("CRLF mail: merchants carry no trailing carriage return or whitespace", () => {
  const bodies: Record<string, string> = {
    CIBC: cibc("Carlos", "GRANITE INSURANCE #204.  "),
    MBNA: "MBNA Alert\n\nA purchase of $87.45 from Best Buy Electronics   \nwas made on your MBNA Mastercard card ending in 1234.\n",
    "PC Financial":
      "Hi Sam,\n\nA purchase of $52.13 was made on your PC Mastercard.\n\nMerchant: FUELSTOP # 4821   \nPurchase amount: $52.13\n",
    RBC: "Hello,\n\na purchase of $127.53 was made on your RBC Royal Bank credit card\ntowards Costco Wholesale.\n\nTransaction Description:\n\nCostco Wholesale \t\n\nThank you!",
  };
  it.each(Object.entries(bodies))("%s", (name, body) => {
    const fields = bank(name).parse(body.replace(/\n/g, "\r\n"));
    expect(fields.company).toMatch(/^\S(.*\S)?$/);
    expect(fields.company).not.toContain("\r");
    expect(fields.transaction_type).toBe("purchase");
  });

  it("e-transfer counterparty, message and reference from CRLF mail", () => {
    const body =
      "Hi JO,\r\n\r\nThe $25.00 (CAD) you sent to MICHELLE ANDERSON has been successfully deposited.\r\n\r\nMessage:\r\nlunch \r\n\r\nReference Number: D4Bp55\r\n";
    expect(parseETransfer(body).company).toBe("MICHELLE ANDERSON | lunch | D4Bp55");
  });
});

describe("Interac whole-dollar amounts such as $40 (CAD)", () => {
  it.each([
    ["The $40 (CAD) you sent to PAT KELLY has been successfully deposited.", 4000],
    ["The transfer you sent to PAT KELLY for the amount of $40 (CAD) has been successfully deposited.", 4000],
    ["PAT KELLY has accepted your transfer of $1,250", 125000],
    [
      "PAT KELLY has sent you $40 (CAD) and the money has been automatically deposited into your account.",
      4000,
    ],
  ])("%s", (sentence, amount) => {
    const fields = parseETransfer(`Hi MARIA,\n\n${sentence}\n`);
    expect(fields.amount).toBe(amount);
    expect(fields.transaction_type).toBe("e-transfer");
    expect(fields.company).toBe("PAT KELLY");
  });
});

describe("CIBC names of more than one word", () => {
  it.each(["Mary Jane Smith", "Carlos De La Cruz", "José Álvarez"])("%s", (name) => {
    expect(bank("CIBC").parse(cibc(name, "TEST MERCHANT.")).name).toBe(name);
  });
});

describe("hyphenated greetings give the name", () => {
  it("CIBC: Dear Mary-Jane,", () => {
    expect(bank("CIBC").parse(cibc("Mary-Jane", "TEST MERCHANT.")).name).toBe("Mary-Jane");
  });
  it("PC Financial: Hi Jean-Luc Picard,", () => {
    const body =
      "Hi Jean-Luc Picard,\n\nA purchase of $5.00 was made on your PC Mastercard.\n\nMerchant: TEA\n";
    expect(bank("PC Financial").parse(body).name).toBe("Jean-Luc Picard");
  });
  it("Interac: Hi MARY-JANE O'NEIL, gives the title-cased first name", () => {
    const body =
      "Hi MARY-JANE O'NEIL,\n\nThe $10.00 (CAD) you sent to BOB has been successfully deposited.\n";
    expect(parseETransfer(body).name).toBe("Mary-Jane");
  });
});

describe("a merchant containing a period is not cut short", () => {
  it.each([
    ["AMZN Mktp CA*2K4 Amazon.ca.", "AMZN Mktp CA*2K4 Amazon.ca"],
    ["St. Hubert.", "St. Hubert"],
    ["St. Hubert. You can sign on to your CIBC Online Banking.", "St. Hubert"],
    ["A.B.C. Pizza Inc", "A.B.C. Pizza Inc"],
  ])("CIBC purchase at %s", (tail, merchant) => {
    expect(bank("CIBC").parse(cibc("Carlos", tail)).company).toBe(merchant);
  });

  it("CIBC preauth, MBNA, PC Financial and RBC", () => {
    const preauth =
      "Dear Carlos,\nyour CIBC Advantage Debit Card has processed a preauthorized payment of $18.75 to St. Hubert on October 01, 2024.\n";
    expect(bank("CIBC").parse(preauth).company).toBe("St. Hubert");
    const mbna = "A purchase of $9.99 from AMZN Mktp CA*2K4 Amazon.ca was made on your MBNA Mastercard.";
    expect(bank("MBNA").parse(mbna).company).toBe("AMZN Mktp CA*2K4 Amazon.ca");
    const pc = "A purchase of $9.99 was made on your PC Mastercard.\n\nMerchant: St. Hubert\n";
    expect(bank("PC Financial").parse(pc).company).toBe("St. Hubert");
    const rbc =
      "a purchase of $9.99 was made on your RBC Royal Bank credit card on October 22, 2024\ntowards St. Hubert.\n";
    expect(bank("RBC").parse(rbc).company).toBe("St. Hubert");
  });
});

describe("money received by e-transfer is an incoming e-transfer with the sender as company", () => {
  it("has sent you money ... automatically deposited", () => {
    const body =
      "Hi ROBIN,\n\nJANE DOE has sent you money: $1,050.25 (CAD), and the money has been automatically deposited into your bank account at RBC Royal Bank.\n\nMessage:\nrent\n\nReference Number: CA1xYz\n";
    expect(parseAlert("notify@payments.interac.ca", body)).toEqual({
      institution: "RBC",
      fields: {
        amount: 105025,
        company: "JANE DOE | rent | CA1xYz",
        name: "Robin",
        transaction_type: "e-transfer",
      },
    });
  });

  it("is not recorded while the money still awaits a manual deposit", () => {
    const body =
      "Hi ROBIN,\n\nJANE DOE has sent you $50.00 (CAD).\n\nTo deposit your money, click here.\n\nRBC Royal Bank";
    expect(parseAlert(null, body).fields.transaction_type).toBeNull();
    expect(parseAlert(null, body).fields.amount).toBeNull();
  });
});
