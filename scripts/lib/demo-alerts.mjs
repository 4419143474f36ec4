// Raw alert emails for the demo household, in the wording the real banks use (samples:
// test/fixtures/emails, and Tidings' in ../shared/reference/tidings). Each goes through the same pipeline as
// any email, so the demo rows carry what real rows carry (extraction, audit, context).

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const SHORT = MONTHS.map((m) => m.slice(0, 3));

const money = (cents) =>
  `$${Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${String(cents % 100).padStart(2, "0")}`;
const pad = (n) => String(n).padStart(2, "0");

/** `p` are local wall-clock parts (year, month 1-12, day, hour, minute, weekday 0-6, offset minutes). */
const longDate = (p) => `${MONTHS[p.month - 1]} ${pad(p.day)}, ${p.year}`;
function rfc2822(p) {
  const sign = p.offset < 0 ? "-" : "+";
  const off = Math.abs(p.offset);
  return `${DAYS[p.weekday]}, ${p.day} ${SHORT[p.month - 1]} ${p.year} ${pad(p.hour)}:${pad(p.minute)}:00 ${sign}${pad(Math.floor(off / 60))}${pad(off % 60)}`;
}

const RBC_FOOTER = [
  "",
  "Privacy & Security",
  "https://click.alerts.rbc.com/?qs=demo",
  "Legal",
  "https://click.alerts.rbc.com/?qs=demo",
  "",
  "RBC Royal Bank | Royal Bank of Canada RBC WaterPark Place, 88 Queens Quay",
  "West, 12th Floor, Toronto, ON, M5J 0B8, Canada www.rbcroyalbank.com",
  "",
  "Please do not reply to this email, as it was sent from an unmonitored account.",
];

const INTERAC_FOOTER = [
  "",
  "Please do not reply to this email.",
  "",
  "This email was sent to you by Interac Corp., the owner of the INTERAC e-Transfer® service.",
  "Interac Corp.",
  "P.O. Box 45, Toronto, Ontario M5J 2J1",
  "www.interac.ca",
];

/** [From, Subject, body lines] of one alert, by institution and type. */
function content(e, p, name) {
  const amt = money(e.cents);
  const day = longDate(p);
  if (e.type === "e-transfer") {
    const bank = e.institution === "Simplii" ? "Simplii Financial" : "RBC Royal Bank";
    return [
      "INTERAC e-Transfer <notify@payments.interac.ca>",
      `INTERAC e-Transfer: ${e.company} sent you money.`,
      [
        `Hi ${name.toUpperCase()},`,
        "",
        `${e.company.toUpperCase()} has sent you a money transfer for the amount of ${amt} (CAD) and the money has been automatically deposited into your bank account at ${bank}.`,
        "",
        `Reference Number: ${e.ref}`,
        ...INTERAC_FOOTER,
      ],
    ];
  }
  switch (e.institution) {
    case "RBC":
      if (e.type === "withdrawal")
        return [
          "RBC Royal Bank <notifications@rbc.com>",
          "Withdrawal Alert",
          [
            "Hello,",
            "",
            `A withdrawal of ${amt} was debited from your bank account Day to Day Banking. The full details of this transaction are below:`,
            "",
            "Account:",
            "Day to Day Banking",
            "",
            "Withdrawal Amount:",
            amt,
            "",
            "Transaction Date:",
            day,
            "",
            "Thank you!",
            ...RBC_FOOTER,
          ],
        ];
      return [
        "RBC Royal Bank <notifications@rbc.com>",
        "Purchase Alert",
        [
          "Hello,",
          "",
          `As requested, we're letting you know that a purchase of ${amt} was made on your RBC Royal Bank credit card account ************${e.card} on ${day} towards ${e.company}.`,
          "",
          "If you don't recognize this transaction, please call us at 1-800-769-2512 (available 24/7) and we'll be happy to help.",
          "",
          "Account:",
          `************${e.card}`,
          "",
          "Purchase Amount:",
          amt,
          "",
          "Transaction Date:",
          day,
          "",
          "Transaction Description:",
          e.company,
          "",
          "Thank you!",
          ...RBC_FOOTER,
        ],
      ];
    case "CIBC": {
      const lead =
        e.type === "preauth"
          ? `We wanted to let you know that your CIBC Advantage Debit Card ending in ${e.card} has processed a preauthorized payment of ${amt} to ${e.company.toUpperCase()} on ${day}.`
          : `You've recently made a purchase with your CIBC Dividend Visa Card ending in ${e.card} for ${amt} at ${e.company.toUpperCase()}.`;
      return [
        "CIBC <mailbox.noreply@cibc.com>",
        "Transaction Alert",
        [
          `Dear ${name},`,
          `      ${lead}`,
          "You can sign on to your CIBC Online or Mobile Banking to view more details about this transaction.Sincerely,",
          "CIBC",
          "Do not respond to this email.",
        ],
      ];
    }
    case "MBNA":
      return [
        "MBNA <alerts@mbna.ca>",
        "MBNA purchase alert",
        [
          "MBNA Alert",
          "",
          `A purchase of ${amt} from ${e.company} was made on your MBNA Mastercard card ending in ${e.card} on ${day}.`,
          "",
          "If you did not make this purchase, please call us immediately at 1-888-876-6262.",
          "",
          "Thank you,",
          "MBNA",
        ],
      ];
    default: // PC Financial
      return [
        "PC Financial <alerts@pcfinancial.ca>",
        "Purchase notification",
        [
          `Hi ${name},`,
          "",
          `A purchase of ${amt} was made on your PC ® Mastercard ®  card ending in ${e.card} on ${day}.`,
          "",
          `Card number: ************${e.card}`,
          `Merchant: ${e.company.toUpperCase()}`,
          `Purchase amount: ${amt}`,
          `Transaction date: ${day}`,
          "",
          "Thank you,",
          "",
          "The PC Financial ® team",
        ],
      ];
  }
}

/**
 * One raw RFC 822 alert (CRLF, UTF-8 quoted as 8bit). `e`: { institution, type, company, cents,
 * card, ref, id }; `p`: the local wall-clock parts of when the bank sent it.
 */
export function alertEmail(e, p, { recipient, name }) {
  const [from, subject, body] = content(e, p, name);
  return [
    `From: ${from}`,
    `To: ${recipient}`,
    `Subject: ${subject}`,
    `Date: ${rfc2822(p)}`,
    `Message-ID: <demo-${e.id}@finance-journal.example>`,
    "MIME-Version: 1.0",
    'Content-Type: text/plain; charset="utf-8"',
    "Content-Transfer-Encoding: 8bit",
    "",
    ...body,
    "",
  ].join("\r\n");
}
