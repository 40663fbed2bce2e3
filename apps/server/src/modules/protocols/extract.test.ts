// How documents become citable pages, and how crew words meet protocol words.
import { describe, expect, it } from 'vitest';
import { describePdfPages, extractDocument } from './extract.js';
import { searchTerms } from './medical-terms.js';

describe('describePdfPages', () => {
  it('reads San Diego and Los Angeles headers: title, protocol number, page as printed; carries them over', () => {
    const sd = describePdfPages('packet.pdf', [
      'DISCLAIMER: PRINTED COPIES ARE FOR REFERENCE ONLY.\nPEDIATRIC TREATMENT PROTOCOL S-162\nALLERGIC REACTION / ANAPHYLAXIS\nDate: 7/1/2025 Page 1 of 2\nbody',
      'ALLERGIC REACTION / ANAPHYLAXIS 7/1/2025\nProtocol: S-162 Page 2 of 2\nbody',
      'no header at all',
    ]);
    expect(sd.map((p) => [p.documentTitle, p.protocolNumber, p.printedPage])).toEqual([
      ['PEDIATRIC ALLERGIC REACTION / ANAPHYLAXIS', 'S-162', 'Page 1 of 2'],
      ['PEDIATRIC ALLERGIC REACTION / ANAPHYLAXIS', 'S-162', 'Page 2 of 2'],
      ['PEDIATRIC ALLERGIC REACTION / ANAPHYLAXIS', 'S-162', 'Page 3'],
    ]);
    const la = describePdfPages('1219-P-Allergy.pdf', [
      'DEPARTMENT OF HEALTH SERVICES\nCOUNTY OF LOS ANGELES\nTreatment Protocol: ALLERGY Ref. No. 1219-P\nREVISED: 10-10-24 PAGE 1 OF 2',
    ]);
    expect(la[0]).toMatchObject({
      documentTitle: 'PEDIATRIC ALLERGY',
      protocolNumber: '1219-P',
      printedPage: 'Page 1 of 2',
    });
  });
});

describe('Markdown and HTML', () => {
  it('cites each ## section as a page under the # title and the Protocol: number', async () => {
    const md = await extractDocument(
      'x.md',
      new TextEncoder().encode('# Burns\n\nProtocol: B-1\n\n## Adult\n\nCool the burn.\n'),
    );
    expect(md.pages.map((p) => [p.documentTitle, p.protocolNumber, p.printedPage])).toEqual([
      ['Burns', 'B-1', 'Section 1: Burns'],
      ['Burns', 'B-1', 'Section 2: Adult'],
    ]);
  });

  it('reads HTML as text (scripts dropped) with the same sections', async () => {
    const html = await extractDocument(
      'x.html',
      new TextEncoder().encode(
        '<h1>Seizure</h1><script>alert(1)</script><h2>Adult</h2><p>Midazolam <b>10 mg</b> IM</p>',
      ),
    );
    expect(html.title).toBe('Seizure');
    expect(html.pages.at(-1)).toMatchObject({ printedPage: 'Section 1: Adult' });
    expect(html.pages.at(-1)!.text).toContain('Midazolam 10 mg IM');
    expect(JSON.stringify(html.pages)).not.toContain('alert');
  });

  it('refuses other file types', async () => {
    await expect(extractDocument('x.docx', new Uint8Array())).rejects.toThrow(/not a PDF, Markdown or HTML/);
  });
});

describe('searchTerms', () => {
  it('brings abbreviations, brand names and plain words to the words protocols print', () => {
    const same = (a: string, b: string) => expect(searchTerms(a)).toEqual(searchTerms(b));
    same('ASA', 'aspirin');
    same('Narcan', 'naloxone');
    same('peds', 'pediatric');
    same('Versed', 'midazolam');
    same('ST elevation myocardial infarction', 'STEMI');
    same('supraventricular tachycardia', 'SVT');
    same('low blood sugar', 'hypoglycemia');
    same('2 mg IN', '2 mg intranasal');
    expect(searchTerms('What is the dose for the patient?')).toEqual(['dose']);
  });
});
