import type { TransactionType } from "../../../../src/ingest/institutions";

/** Building blocks for the property tests. */

interface Parts {
  amount: string;
  merchant: string;
  person: string;
  name: string;
}

export interface Template {
  label: string;
  institution: string;
  type: TransactionType;
  body(p: Parts): string;
  company(p: Pick<Parts, "merchant" | "person">): string | null;
  name(p: Pick<Parts, "name" | "person">): string | null;
}

// Generated given names are title-cased ("Mary-Jane"); Interac shouts them ("MARY-JANE") and the
// parser is expected to title-case them back.
const interacName = (p: Pick<Parts, "name">) => p.name;
const interacFooter = (bank: string) =>
  `Reference Number: C1AB2\n\nPlease do not reply to this email.\n\nThis email was sent to you by Interac Corp., on behalf of ${bank}.`;

/** Alert bodies per bank, after the reference fixtures' wording, for generated round-trips. */
export const TEMPLATES: Template[] = [
  {
    label: "RBC purchase",
    institution: "RBC",
    type: "purchase",
    body: (p) =>
      `Hello,\n\nAs requested, we're letting you know that a purchase of ${p.amount} was made on\nyour RBC Royal Bank credit card account ************5678 on October 22, 2024\ntowards ${p.merchant}.\n\nPurchase Amount:\n\n${p.amount}\n\nTransaction Description:\n\n${p.merchant}\n\nThank you!`,
    company: (p) => p.merchant,
    name: () => null,
  },
  {
    label: "RBC purchase (sentence only)",
    institution: "RBC",
    type: "purchase",
    body: (p) =>
      `Hello,\n\na purchase of ${p.amount} was made on your RBC Royal Bank credit card on October 22, 2024\ntowards ${p.merchant}.\n\nIf you don't recognize this transaction, please call us.`,
    company: (p) => p.merchant,
    name: () => null,
  },
  {
    label: "RBC withdrawal",
    institution: "RBC",
    type: "withdrawal",
    body: (p) =>
      `Hello,\n\n A withdrawal of ${p.amount}  was debited from your bank account Daily Savings. The full details of this transaction are below:\n\nWithdrawal Amount:\n\n ${p.amount}\n\n RBC Royal Bank | Royal Bank of Canada`,
    company: () => null,
    name: () => null,
  },
  {
    label: "RBC e-transfer sent",
    institution: "RBC",
    type: "e-transfer",
    body: (p) =>
      `Hi ${p.name.toUpperCase()} SMITH,\n\nThe ${p.amount} (CAD) you sent to ${p.person} has been successfully deposited.\n\nMessage: thanks\n\n${interacFooter("RBC Royal Bank")}`,
    company: (p) => `${p.person} | thanks | C1AB2`,
    name: interacName,
  },
  {
    label: "RBC e-transfer accepted",
    institution: "RBC",
    type: "e-transfer",
    body: (p) =>
      `Hi ${p.name.toUpperCase()},\n\n${p.person} has accepted your transfer of ${p.amount}\n\nThe transfer you sent to ${p.person} for the amount of ${p.amount} (CAD) has been successfully deposited.\n\nMessage:\nthanks\n\n${interacFooter("RBC Royal Bank")}`,
    company: (p) => `${p.person} | thanks | C1AB2`,
    name: interacName,
  },
  {
    label: "RBC e-transfer received",
    institution: "RBC",
    type: "e-transfer",
    body: (p) =>
      `Hi ${p.name.toUpperCase()},\n\n${p.person} has sent you a money transfer for the amount of ${p.amount} (CAD) and the money has been automatically deposited into your bank account at RBC Royal Bank.\n\nMessage:\nthanks\n\n${interacFooter("RBC Royal Bank")}`,
    company: (p) => `${p.person} | thanks | C1AB2`,
    name: interacName,
  },
  {
    label: "Simplii e-transfer sent",
    institution: "Simplii",
    type: "e-transfer",
    body: (p) =>
      `Hi ${p.name},\n\nThe ${p.amount} (CAD) you sent to ${p.person} has been successfully deposited.\n\nDetails of the Transfer:\n\nMessage: thanks\n\n${interacFooter("Simplii Financial")}`,
    company: (p) => `${p.person} | thanks | C1AB2`,
    name: (p) => p.name.split(" ")[0]!,
  },
  {
    label: "CIBC purchase",
    institution: "CIBC",
    type: "purchase",
    body: (p) =>
      `Dear ${p.name},\n      You've recently made a purchase with your CIBC Costco World Mastercard ending in 2210 for ${p.amount} at ${p.merchant}.\nYou can sign on to your CIBC Online or Mobile Banking to view more details about this transaction.Sincerely,\nCIBC`,
    company: (p) => p.merchant,
    name: (p) => p.name,
  },
  {
    label: "CIBC preauth",
    institution: "CIBC",
    type: "preauth",
    body: (p) =>
      `Dear ${p.name},\n      We wanted to let you know that your CIBC Advantage Debit Card ending in 3345 has processed a preauthorized payment of ${p.amount} to ${p.merchant} on October 01, 2024.\nYou can sign on to your CIBC Online or Mobile Banking.`,
    company: (p) => p.merchant,
    name: (p) => p.name,
  },
  {
    label: "MBNA purchase",
    institution: "MBNA",
    type: "purchase",
    body: (p) =>
      `MBNA Alert\n\nA purchase of ${p.amount} from ${p.merchant} was made on your MBNA Mastercard card ending in 1234 on October 15, 2024.\n\nThank you,\nMBNA`,
    company: (p) => p.merchant,
    name: () => null,
  },
  {
    label: "PC Financial purchase",
    institution: "PC Financial",
    type: "purchase",
    body: (p) =>
      `Hi ${p.name},\n\nA purchase of ${p.amount} was made on your PC Mastercard card ending in 8804 on August 15, 2025.\n\nCard number: ************8804\nMerchant: ${p.merchant}\nPurchase amount: ${p.amount}\nTransaction date: August 15, 2025\n\nThe PC Financial team`,
    company: (p) => p.merchant,
    name: (p) => p.name,
  },
];

// Everything else an alert is made of, so noise exercises the parsers' deeper paths.
export const TOKENS = [
  "$",
  "1,234.56",
  "$40",
  "$0.01",
  "$1,687.00",
  " (CAD)",
  "RBC",
  "CIBC",
  "MBNA",
  "Simplii",
  "PC Financial",
  "Hi BOB SMITH,",
  "Dear Ann,",
  "Hello,",
  " at ",
  " from ",
  " to ",
  " towards ",
  " for ",
  "for the amount of",
  " was made on your",
  " has been",
  " deposited",
  " automatically",
  " payment",
  " has accepted your",
  " you",
  "Merchant: SHOP",
  "Message:",
  "Reference Number: X1",
  "Purchase",
  "Transaction Description:",
  "ending in 1234",
  "****5678",
  " on October 01, 2024",
  "\n",
  "\r\n",
  "\n\n",
  " ",
  ".",
  ",",
  ":",
  "St.",
  "Amazon.ca",
];
