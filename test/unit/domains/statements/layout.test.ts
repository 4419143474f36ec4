import { describe, expect, it } from "vitest";
import { parseStatementText } from "../../../../src/domains/statements/parsers";
import { cleanDescription } from "../../../../src/domains/statements/parsers/clean";
import { findPeriod, parseRowDate, resolveYear } from "../../../../src/domains/statements/parsers/dates";
import { type Line, readAmount } from "../../../../src/domains/statements/parsers/layout";
import {
  MAX_CHARS,
  MAX_LINES,
  marksFromAnswer,
  promptLines,
} from "../../../../src/domains/statements/layouts/propose";
import { readPdfText } from "../../../../src/domains/statements/parsers/pdf-text";
import { type OwnRow, mapleStatement } from "../../../fixtures/statements/banks";
import { makePdf } from "../../../fixtures/statements/make-pdf";
import {
  dayMon,
  en,
  type GenRow,
  type GenStatement,
  cols,
  monDay,
  writeStatement,
} from "../../../fixtures/statements/layouts";

const fmt = (c: number) =>
  (c / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

interface Spec {
  date: string | null;
  lines: string[];
  out?: number;
  in?: number;
  amountsLast?: boolean;
}

/** Rows with running balances printed (cents in, strings out), plus totals. */
function build(specs: Spec[], opening: number, perPage?: number) {
  let bal = opening;
  let tin = 0;
  let tout = 0;
  const rows: OwnRow[] = specs.map((s) => {
    bal += (s.in ?? 0) - (s.out ?? 0);
    tin += s.in ?? 0;
    tout += s.out ?? 0;
    return {
      date: s.date,
      lines: s.lines,
      out: s.out ? fmt(s.out) : undefined,
      in: s.in ? fmt(s.in) : undefined,
      balance: fmt(bal),
      amountsLast: s.amountsLast,
    };
  });
  return mapleStatement(rows, {
    perPage,
    opening: fmt(opening),
    closing: fmt(bal),
    totalsIn: fmt(tin),
    totalsOut: fmt(tout),
  });
}

describe("layout rules on a statement of another bank", () => {
  it("multi-page, wrapped rows (amounts first or last), one date for several rows, a year end", async () => {
    const specs: Spec[] = [
      { date: "Dec 16", lines: ["POS PURCHASE", "CORNER GROCERY #12"], out: 5420 },
      { date: null, lines: ["E-TRANSFER RECEIVED"], in: 120000 },
      { date: "Dec 24", lines: ["HARDWARE DEPOT"], out: 123456 },
      { date: null, lines: ["PHARMACY PLUS"], out: 1999 },
      { date: "Dec 31", lines: ["ANNUAL FEE"], out: 12000 },
      { date: "Jan 02", lines: ["PAYROLL DEPOSIT", "ACME LTD"], in: 234567, amountsLast: true },
      { date: "Jan 05", lines: ["COFFEE ROASTERS"], out: 450 },
      { date: null, lines: ["COFFEE ROASTERS"], out: 450 },
      { date: "Jan 10", lines: ["RENT PAYMENT", "PROPERTY MGMT INC", "UNIT 4"], out: 150000 },
    ];
    const pdf = build(specs, 250000, 4);
    const out = parseStatementText(await readPdfText(pdf), 2030);
    if (!out.ok) throw new Error(out.message);
    const s = out.statement;
    expect(s.balance.warnings).toEqual([]);
    expect(s.period_start).toBe("2024-12-15");
    expect(s.period_end).toBe("2025-01-14");
    expect(s.institution).toBe("Other");
    expect(s.rows.map((r) => [r.date, r.type, r.amount, r.description])).toEqual([
      ["2024-12-16", "withdrawal", 5420, "POS PURCHASE CORNER GROCERY #12"],
      ["2024-12-16", "deposit", 120000, "E-TRANSFER RECEIVED"],
      ["2024-12-24", "withdrawal", 123456, "HARDWARE DEPOT"],
      ["2024-12-24", "withdrawal", 1999, "PHARMACY PLUS"],
      ["2024-12-31", "withdrawal", 12000, "ANNUAL FEE"],
      ["2025-01-02", "deposit", 234567, "PAYROLL DEPOSIT ACME LTD"],
      ["2025-01-05", "withdrawal", 450, "COFFEE ROASTERS"],
      ["2025-01-05", "withdrawal", 450, "COFFEE ROASTERS"],
      ["2025-01-10", "withdrawal", 150000, "RENT PAYMENT PROPERTY MGMT INC UNIT 4"],
    ]);
    expect(s.rows.at(-1)!.balance).toBe(
      250000 + 120000 + 234567 - 5420 - 123456 - 1999 - 12000 - 450 - 450 - 150000,
    );
  });

  it("says so when the balances do not chain (a misread amount)", async () => {
    const pdf = build(
      [
        { date: "Dec 16", lines: ["SHOP"], out: 1000 },
        { date: "Dec 17", lines: ["SHOP"], out: 2000 },
      ],
      100000,
    );
    const text = await readPdfText(pdf);
    // Corrupt one printed amount, as a misaligned column would.
    const item = text.items.find((i) => i.str === "20.00")!;
    item.str = "25.00";
    const out = parseStatementText(text, 2030);
    if (!out.ok) throw new Error(out.message);
    expect(out.statement.balance.ok).toBe(false);
    expect(out.statement.balance.mismatches).toEqual([1]);
  });

  it("a PDF without a transaction table, and one without text, are refused", async () => {
    const letter = makePdf([
      [{ x: 72, y: 700, text: "Dear customer, your new card is on its way. Thank you for banking with us." }],
    ]);
    const a = parseStatementText(await readPdfText(letter), 2025);
    expect(a.ok ? "ok" : a.reason).toBe("not_a_statement");
    const scan = makePdf([[]]);
    const b = parseStatementText(await readPdfText(scan), 2025);
    expect(b.ok ? "ok" : b.reason).toBe("scanned");
  });
});

describe("other layouts", () => {
  it("a header over two lines, and wrapped rows with amounts on the last line at even spacing", async () => {
    const y0 = 640;
    const L = (y: number, ...items: [number, string][]) => items.map(([x, text]) => ({ x, y, text }));
    const page = [
      ...L(720, [40, "Northern Bank - chequing account statement for March 1, 2025 to March 31, 2025"]),
      ...L(y0 + 12, [40, "Transaction"], [330, "Money"], [420, "Money"], [500, "Running"]),
      ...L(y0, [40, "Date"], [110, "Details"], [330, "out"], [420, "in"], [500, "balance"]),
      ...L(y0 - 16, [110, "Opening balance"], [500, "1,000.00"]),
      ...L(y0 - 32, [40, "03 Mar"], [110, "ONLINE TRANSFER TO"]),
      ...L(y0 - 43, [110, "SAVINGS 1234"], [330, "100.00"], [500, "900.00"]),
      ...L(y0 - 54, [110, "BILL PAYMENT"]),
      ...L(y0 - 65, [110, "HYDRO ONE"], [330, "50.25"], [500, "849.75"]),
      ...L(y0 - 76, [40, "04 Mar"], [110, "PAYROLL"], [420, "2,000.00"], [500, "2,849.75"]),
      ...L(y0 - 92, [110, "Closing balance"], [500, "2,849.75"]),
    ];
    const out = parseStatementText(await readPdfText(makePdf([page])), 2030);
    if (!out.ok) throw new Error(out.message);
    expect(out.statement.balance.warnings).toEqual([]);
    expect(out.statement.rows.map((r) => [r.date, r.type, r.amount, r.description])).toEqual([
      ["2025-03-03", "withdrawal", 10000, "ONLINE TRANSFER TO SAVINGS 1234"],
      ["2025-03-03", "withdrawal", 5025, "BILL PAYMENT HYDRO ONE"],
      ["2025-03-04", "deposit", 200000, "PAYROLL"],
    ]);
  });

  it("a card statement: one signed amount column, no balance column, owed balance checked from the summary", async () => {
    const L = (y: number, ...items: [number, string][]) => items.map(([x, text]) => ({ x, y, text }));
    const page = [
      ...L(740, [40, "Harbour Mastercard statement, February 10, 2025 to March 9, 2025"]),
      ...L(720, [40, "Previous balance"], [200, "$300.00"]),
      ...L(708, [40, "New balance"], [200, "$104.50"]),
      ...L(660, [40, "Date"], [90, "Posted"], [150, "Description"], [480, "Amount ($)"]),
      ...L(644, [40, "Feb 12"], [90, "Feb 13"], [150, "CORNER COFFEE"], [480, "4.50"]),
      ...L(628, [40, "Mar 02"], [90, "Mar 03"], [150, "PAYMENT - THANK YOU"], [480, "-200.00"]),
    ];
    const out = parseStatementText(await readPdfText(makePdf([page])), 2030);
    if (!out.ok) throw new Error(out.message);
    expect(out.statement.account_type).toBe("credit_card");
    expect(out.statement.balance.warnings).toEqual([]);
    expect(out.statement.rows.map((r) => [r.date, r.type, r.amount, r.balance])).toEqual([
      ["2025-02-12", "withdrawal", 450, 30450],
      ["2025-03-02", "deposit", 20000, 10450],
    ]);
  });
});

describe("printed amounts", () => {
  it("reads signs, brackets, credit/debit and overdrawn marks, and cut-off decimals", () => {
    expect(readAmount("1,234.56")).toEqual({ cents: 123456, negative: false, truncated: false });
    expect(readAmount("(82.15)")).toMatchObject({ cents: 8215, negative: true });
    expect(readAmount("82.15-")).toMatchObject({ cents: 8215, negative: true });
    expect(readAmount("45.00 OD")).toMatchObject({ cents: 4500, negative: true });
    expect(readAmount("45.00 CR")).toMatchObject({ cents: 4500, negative: false });
    expect(readAmount("=$7,187.06")).toMatchObject({ cents: 718706, negative: false });
    expect(readAmount("4,882.2")).toEqual({ cents: 488220, negative: false, truncated: true });
    expect(readAmount("4180")).toBeNull();
    expect(readAmount("Feb 27")).toBeNull();
  });
});

describe("dates and descriptions", () => {
  it("reads the date forms statements print", () => {
    expect(parseRowDate("27Feb")).toEqual({ day: 27, month: 2, year: null });
    expect(parseRowDate("Mar 04")).toEqual({ month: 3, day: 4, year: null });
    expect(parseRowDate("2025-03-04")).toEqual({ year: 2025, month: 3, day: 4 });
    expect(parseRowDate("12/31/2024")).toEqual({ month: 12, day: 31, year: 2024 });
    expect(parseRowDate("Sept 9")).toEqual({ month: 9, day: 9, year: null });
    expect(parseRowDate("PAYROLL")).toBeNull();
    // An impossible date is no date.
    expect(parseRowDate("Feb 31")).toBeNull();
  });

  it("finds the period and puts yearless dates in it, across a year end", () => {
    const p = findPeriod("statement period: December 15, 2024 - January 14, 2025");
    expect(p).toEqual({ start: "2024-12-15", end: "2025-01-14" });
    expect(resolveYear({ month: 12, day: 20, year: null }, p, 2030)).toBe("2024-12-20");
    expect(resolveYear({ month: 1, day: 3, year: null }, p, 2030)).toBe("2025-01-03");
    expect(findPeriod("Feb 27 to Mar 30, 2025")).toEqual({ start: "2025-02-27", end: "2025-03-30" });
  });

  it("cleans prefixes, maps a bare prefix to a display name and splits CamelCase", () => {
    expect(cleanDescription("BillPayment WestlandUtilityCo")).toBe("Westland Utility Co");
    expect(cleanDescription("Onlinetransfersent-5027 JORDAN MILLER")).toBe("JORDAN MILLER");
    expect(cleanDescription("Mobilechequedeposit-8394")).toBe("Mobile Cheque Deposit");
    expect(cleanDescription("INTERAC E-TRANSFER SEND Northside Sports Club")).toBe("Northside Sports Club");
    expect(cleanDescription("GROCERY MARKET")).toBe("GROCERY MARKET");
  });

  it("a multi-word description header; a net-activity line and a dateless line summing the rows are totals, not rows", async () => {
    const L = (y: number, ...items: [number, string][]) => items.map(([x, text]) => ({ x, y, text }));
    const card = (net: [number, string][]) => [
      ...L(740, [40, "Harbour Visa card - statement period: April 3, 2024 to May 2, 2024"]),
      ...L(680, [40, "Purchase"], [100, "Posting"]),
      ...L(672, [40, "date"], [100, "date"], [160, "Merchant details"], [480, "Amount"]),
      ...L(656, [160, "Previous statement balance"], [480, "$1,000.00"]),
      ...L(640, [40, "APR 04"], [100, "APR 05"], [160, "BOOKSHOP"], [480, "$25.00"]),
      ...L(624, [40, "APR 20"], [100, "APR 21"], [160, "PAYMENT RECEIVED"], [480, "-$500.00"]),
      ...L(608, [40, "MAY 01"], [100, "MAY 02"], [160, "TRAIN TICKETS"], [480, "$75.50"]),
      ...L(592, ...net),
      ...L(576, [160, "New balance"], [480, "$600.50"]),
    ];
    const want = [
      ["2024-04-04", "withdrawal", 2500],
      ["2024-04-20", "deposit", 50000],
      ["2024-05-01", "withdrawal", 7550],
    ];
    // Worded as a net line (whatever the amount), or unworded but equal to the net of the rows.
    for (const net of [
      [
        [160, "Net activity this period"],
        [480, "$12.34"],
      ],
      [
        [160, "Change this cycle"],
        [480, "-$399.50"],
      ],
    ] as [number, string][][]) {
      const out = parseStatementText(await readPdfText(makePdf([card(net)])), 2030);
      if (!out.ok) throw new Error(out.message);
      expect(out.statement.rows.map((r) => [r.date, r.type, r.amount])).toEqual(want);
      expect(out.statement.balance.ok, JSON.stringify(out.statement.balance)).toBe(true);
    }
  });
});

describe("the model's column proposal (prompt and answer)", () => {
  const line = (page: number, y: number, cells: [number, string][]): Line => ({
    page,
    y,
    items: cells.map(([x, str]) => ({ page, x, y, w: str.length * 5, str })),
  });
  // Forty pages of sixty rows each: the prompt holds the first lines only, never the file.
  const pages = Array.from({ length: 40 }, (_, p) =>
    Array.from({ length: 60 }, (_, i) =>
      line(p + 1, 760 - i * 12, [
        [40, `${String((i % 28) + 1).padStart(2, "0")}/03/2025`],
        [110, `SHOP NUMBER ${p}-${i}`],
        [440, `-${i + 1},00`],
        [520, `${1000 + i},00`],
      ]),
    ),
  ).flat();

  it("numbers the first page or two of lines, bounded in lines and characters", () => {
    const { text, shown } = promptLines(pages);
    expect(shown.length).toBeLessThanOrEqual(MAX_LINES);
    expect(text.length).toBeLessThanOrEqual(MAX_CHARS);
    expect(shown.every((l) => l.page <= 2)).toBe(true);
    expect(text.split("\n")[0]).toBe(
      "L1: [40] 01/03/2025  [110] SHOP NUMBER 0-0  [440] -1,00  [520] 1000,00",
    );
    const wide = pages.map((l) => line(l.page, l.y, [[40, "x".repeat(400)]]));
    expect(promptLines(wide).text.length).toBeLessThanOrEqual(MAX_CHARS);
  });

  it("turns cells into x-spans; a cell not on its line is looked for on the page; invented cells are refused", () => {
    const { shown } = promptLines(pages);
    const got = marksFromAnswer(
      {
        date: { line: 3, text: "03/03/2025" },
        description: { line: 3, text: "SHOP NUMBER 0-2" },
        amount: { line: 1, text: "-3,00" },
        balance: null,
      },
      shown,
    );
    expect(got).toEqual({
      ok: true,
      marks: { date: { x0: 40, x1: 90 }, description: { x0: 110, x1: 185 }, amount: { x0: 440, x1: 465 } },
    });
    const invented = marksFromAnswer(
      {
        date: { line: 1, text: "01/03/2025" },
        description: { line: 1, text: "NOWHERE" },
        amount: { line: 1, text: "-1,00" },
      },
      shown,
    );
    expect(invented).toEqual({ ok: false, why: "the description cell “NOWHERE” is not on the page" });
    const noAmount = marksFromAnswer(
      { date: { line: 1, text: "01/03/2025" }, description: { line: 1, text: "SHOP NUMBER 0-0" } },
      shown,
    );
    expect(noAmount.ok).toBe(false);
    expect(marksFromAnswer({ date: "01/03/2025" }, shown).ok).toBe(false);
  });
});

describe("a family of generated layouts, one feature each, read by the general rules", () => {
  const shop = (date: string, text: string | string[], cents: number, fx?: string): GenRow => ({
    date,
    lines: typeof text === "string" ? [text] : text,
    cents,
    fx,
  });
  const signed = (c: number) => `${c < 0 ? "-" : ""}${en(c)}`;
  const cases: [string, GenStatement][] = [
    [
      "separate debit and credit columns",
      {
        heading: ["Lakeview Bank", "Chequing account statement from 01 Feb 2025 to 28 Feb 2025"],
        columns: cols(
          ["date", "Date", 40],
          ["desc", "Description", 120],
          ["out", "Withdrawals", 400],
          ["in", "Deposits", 480],
          ["balance", "Balance", 570],
        ),
        rows: [
          shop("2025-02-03", "GROCERY MART", -5_412),
          shop("2025-02-05", "PAYROLL ACME", 215_000),
          shop("2025-02-05", "RENT FEBRUARY", -140_000),
          shop("2025-02-20", "INTEREST", 12),
        ],
        opening: 100_000,
        date: (iso) => `${dayMon(iso)} ${iso.slice(0, 4)}`,
      },
    ],
    [
      "one signed amount column",
      {
        heading: ["Fjord Savings Bank", "Current account - statement period 2025-03-01 to 2025-03-31"],
        columns: cols(
          ["date", "Date", 40],
          ["desc", "Details", 120],
          ["amount", "Amount", 470],
          ["balance", "Balance", 560],
        ),
        rows: [
          shop("2025-03-02", "CARD PURCHASE BAKERY", -450),
          shop("2025-03-10", "SALARY", 310_000),
          shop("2025-03-11", "TRANSFER TO SAVINGS", -50_000),
        ],
        opening: 20_000,
        date: (iso) => iso,
        money: (c) => signed(c),
      },
    ],
    [
      "unsigned amounts whose sign only the running balance tells",
      {
        heading: ["Kestrel Bank", "Account statement 01/04/2025 - 30/04/2025"],
        columns: cols(
          ["date", "Date", 40],
          ["desc", "Transaction", 120],
          ["amount", "Amount", 470],
          ["balance", "Balance", 560],
        ),
        rows: [
          shop("2025-04-02", "WATER BILL", -3_210),
          shop("2025-04-04", "REFUND BOOKSHOP", 1_999),
          shop("2025-04-09", "ATM WITHDRAWAL", -10_000),
          shop("2025-04-25", "SALARY", 180_000),
        ],
        opening: 50_000,
        date: (iso) => `${iso.slice(8)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`,
      },
    ],
    [
      "descriptions over two and three lines",
      {
        heading: ["Heron Credit Union", "Chequing statement period: March 1, 2025 to March 31, 2025"],
        columns: cols(
          ["date", "Date", 40],
          ["desc", "Description", 110],
          ["out", "Debit", 400],
          ["in", "Credit", 480],
          ["balance", "Balance", 570],
        ),
        rows: [
          shop("2025-03-03", ["BILL PAYMENT", "CITY HYDRO"], -8_850),
          shop("2025-03-07", ["E-TRANSFER RECEIVED", "FROM J SMITH", "REF 88412"], 25_000),
          shop("2025-03-12", "COFFEE", -375),
          shop("2025-03-18", ["MORTGAGE PAYMENT", "HERON CU LOAN 4471", "MARCH"], -152_000),
        ],
        opening: 300_000,
        date: monDay,
      },
    ],
    [
      "a year that changes across pages (no period printed, only the statement date)",
      {
        heading: ["Osprey Bank", "Chequing account", "Statement date: 15 January 2025"],
        columns: cols(
          ["date", "Date", 40],
          ["desc", "Description", 110],
          ["out", "Withdrawals", 400],
          ["in", "Deposits", 480],
          ["balance", "Balance", 570],
        ),
        rows: [
          shop("2024-12-16", "GIFT SHOP", -6_000),
          shop("2024-12-24", "HOLIDAY BONUS", 50_000),
          shop("2024-12-31", "ANNUAL FEE", -12_000),
          shop("2025-01-02", "GROCERY MART", -8_123),
          shop("2025-01-10", "PAYROLL ACME", 200_000),
        ],
        opening: 40_000,
        perPage: 3,
        date: dayMon,
      },
    ],
    [
      "a foreign-currency column beside the amount",
      {
        heading: ["Albatross Visa credit card statement", "Statement period: May 3, 2025 to June 2, 2025"],
        columns: cols(
          ["date", ["Transaction", "date"], 40],
          ["desc", "Description", 120],
          ["fx", ["Foreign", "currency"], 420],
          ["amount", "Amount ($)", 540],
        ),
        rows: [
          shop("2025-05-05", "HOTEL LISBOA", -18_250, "EUR 120.00"),
          shop("2025-05-09", "BOOKSHOP", -2_500),
          shop("2025-05-20", "PAYMENT - THANK YOU", 40_000),
          shop("2025-05-28", "NYC TAXI", -3_411, "USD 24.50"),
        ],
        opening: 60_000,
        owed: true,
        balances: "summary",
        date: monDay,
        money: (c, kind) => (kind === "balance" ? `$${en(c)}` : signed(-c)),
      },
    ],
    [
      "a card statement whose payments are marked CR",
      {
        heading: ["Puffin Bank Mastercard", "Statement period: 10 Jun 2025 - 09 Jul 2025"],
        columns: cols(
          ["date", "Trans date", 40],
          ["posted", "Post date", 100],
          ["desc", "Description", 170],
          ["amount", "Amount", 540],
        ),
        rows: [
          shop("2025-06-12", "PETROL STATION", -6_540),
          shop("2025-06-20", "PAYMENT RECEIVED", 50_000),
          shop("2025-06-22", "SUPERMARKET", -11_234),
          shop("2025-07-01", "REFUND SHOES", 4_999),
          shop("2025-07-03", "RESTAURANT", -8_800),
        ],
        opening: 75_000,
        owed: true,
        balances: "summary",
        date: dayMon,
        money: (c, kind) => (kind === "balance" ? en(c) : c > 0 ? `${en(c)} CR` : en(c)),
      },
    ],
    [
      "newest first, a receipt column before the date, a status column, 0.00 in the column a row does not use",
      {
        heading: ["Mobile money full statement"],
        columns: cols(
          ["ref", "Receipt No", 40],
          ["date", "Completion Time", 110],
          ["desc", "Details", 200],
          ["status", "Transaction Status", 330],
          ["in", "Paid in", 470],
          ["out", "Withdrawn", 520],
          ["balance", "Balance", 575],
        ),
        rows: [
          shop("2025-05-09", ["Deposit at agent till 2172", "CENTRE BRANCH"], 80_000_00),
          shop("2025-05-09", "Customer transfer charge", -108_00),
          shop("2025-05-14", ["Customer transfer to 0721", "P GITONGA"], -3_000_00),
          shop("2025-06-17", "Pay bill online to 244441", -1_000_00),
        ],
        opening: 0,
        balances: "none",
        newestFirst: true,
        zeros: true,
        date: (iso) => `${iso} 10:48:41`,
      },
    ],
    [
      "an information line the balances step over, and a stamp printed over the rows of every page",
      {
        heading: ["Savings account statement", "From Date: 03/06/2023 To Date: 30/06/2023"],
        columns: cols(
          ["date", "Posting Date", 40],
          ["desc", "Description", 110],
          ["in", "Money In", 430],
          ["out", "Money Out", 500],
          ["balance", "Balance", 570],
        ),
        rows: [
          shop("2023-06-03", "Gautrain (Card 0797)", -6_500),
          shop("2023-06-05", "Shoprite Pretoria", -54_978),
          shop("2023-06-07", "Payment received M Mokgohloa", 25_000),
          shop("2023-06-15", "Debit order refused (R992.75): Vodacom", 99_275, undefined),
          shop("2023-06-15", "Debit order refused fee", -700),
          shop("2023-06-23", "Salary", 953_625),
          shop("2023-06-24", "ATM cash withdrawal", -10_000),
        ].map((r, i) => (i === 3 ? { ...r, info: true } : r)),
        opening: 286_035,
        perPage: 3,
        stamp: ["Harbour Bank", "Branch: 470010"],
        date: (iso) => `${iso.slice(8)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`,
        money: (c, kind) => (kind === "out" && c !== 0 ? signed(c) : en(c)),
      },
    ],
    [
      "a card's 'Transaction date' header, last month's balance and the total amount due, payments in brackets",
      {
        heading: ["Lion City credit card", "Statement date 01-08-2023"],
        columns: cols(
          ["date", "TRANSACTION DATE", 52],
          ["desc", "DESCRIPTION", 200],
          ["amount", "AMOUNT (SGD)", 550],
        ),
        rows: [
          shop("2023-07-02", "PAYMENT BY INTERNET", 41_216),
          shop("2023-07-03", "BREAKFAST PLACE SINGAPORE SG", -420),
          shop("2023-07-18", "CASH REBATE", 138),
          shop("2023-07-31", "BUS RIDE SINGAPORE SG", -1_190),
        ],
        opening: 41_216,
        owed: true,
        labels: ["LAST MONTH'S BALANCE", "TOTAL AMOUNT DUE"],
        date: (iso) => `${iso.slice(8)}/${iso.slice(5, 7)}`,
        money: (c, kind) => (kind === "balance" || c < 0 ? en(c) : `(${en(c)})`),
      },
    ],
  ];

  it.each(cases)("%s", async (_name, spec) => {
    const { pdf, want, closing } = writeStatement(spec);
    const out = parseStatementText(await readPdfText(pdf), 2031);
    if (!out.ok) throw new Error(out.message);
    const s = out.statement;
    expect(s.rows.map((r) => [r.date, r.type, r.amount, r.description])).toEqual(want);
    // The stamp and the receipt/status columns are no row's words.
    expect(s.rows.map((r) => r.description).join(" ")).not.toMatch(/Branch|Harbour Bank|COMPLETED|TX0/);
    // A statement that prints no period says how it dated its rows (a person checks them once); an
    // information line left out is said too.
    const dated = s.balance.warnings.filter((w) => /^No statement period/.test(w));
    const left = s.balance.warnings.filter((w) => /^Left out .*printed balances step over it/.test(w));
    expect(left).toHaveLength(spec.rows.filter((r) => r.info).length);
    expect(s.balance.warnings).toEqual(
      [...dated, ...left].sort((a, b) => s.balance.warnings.indexOf(a) - s.balance.warnings.indexOf(b)),
    );
    const years = new Set(spec.rows.map((r) => r.date.slice(0, 4)));
    if (dated.length)
      expect(dated[0]).toMatch(
        years.size > 1
          ? /run over a year end.*2025.*January in 2024/
          : /dated in \d{4}, the year the statement prints/,
      );
    expect(s.balance).toMatchObject({ ok: true, opening: spec.opening, closing, mismatches: [] });
    if (spec.owed) expect(s.account_type).toBe("credit_card");
  });
});
