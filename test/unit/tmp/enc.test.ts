import { it, expect } from "vitest";
import { detectEncoding } from "../../../src/domains/statements/parsers/decode";
const enc = (t: string, cp: string) => {
  const table = new TextDecoder(cp);
  const map = new Map<string, number>();
  for (let b = 0; b < 256; b++) map.set(table.decode(new Uint8Array([b])), b);
  return Uint8Array.from([...t].map((c) => map.get(c) ?? 63));
};
it("enc", () => {
  for (const [t, cp] of [
    ["Datum provedení;Číslo účtu;Zaúčtovaná částka;Měna účtu;Původní částka\n27.05.2018;Převod;-12,50;CZK;x\n", "windows-1250"],
    ["Date;Libellé;Montant\n01/02/2024;Chèque n° 12 à régler;-12,50\n02/02/2024;Dépôt très rapide;5\n", "windows-1252"],
    ["Data;Descrizione;Importo\n01/02/2024;Attività società più;-12,50\n", "windows-1252"],
    ["Dato;Tekst;Beløb\n01-02-2024;Køb hos Føtex;-12,50\n", "windows-1252"],
    ["Data księgowania;Opis operacji;Kwota\n2024-01-02;Płatność kartą żabka;-12,50\n", "windows-1250"],
    ["Könyvelés dátuma;Összeg;Közlemény\n2019.04.19.;-350;Vásárlás őszi\n", "windows-1250"],
  ]) expect([t.slice(0, 20), detectEncoding(enc(t, cp))]).toEqual([t.slice(0, 20), cp]);
});
