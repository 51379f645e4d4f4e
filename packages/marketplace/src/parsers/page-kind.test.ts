import * as fs from 'fs';
import * as path from 'path';
import { parseDetailsPage } from './details';
import { detectPageKind } from './page-kind';
import { parseSearchPage } from './search';

const dir = path.resolve(__dirname, '../../../../../shared/fixtures/amazon');
const hasFixtures = fs.existsSync(dir);
if (!hasFixtures) console.warn(`[parsers] fixture dir ${dir} not found: fixture-based page-kind tests skipped`);
const d = hasFixtures ? describe : describe.skip;
const read = (f: string): string => fs.readFileSync(path.join(dir, f), 'utf8');

d('detectPageKind on fixture pages', () => {
  const expected: Record<string, string> = {
    'captcha-1.html': 'captcha',
    'details-BR-8565042472.html': 'details',
    'details-BR-B085VK7LYQ.html': 'details',
    'details-DE-B01GAWQSFW.html': 'details',
    'details-ES-B01MUGXRT9.html': 'details',
    'details-ES-B08PBWPQ16.html': 'details',
    'details-FR-B07H57DNVV.html': 'details',
    'details-UK-1439878676.html': 'details',
    'details-UK-1849757097.html': 'details',
    'details-US-0062796984.html': 'details',
    'details-US-B0011UCPM4.html': 'details',
    'details-US-B01GAWQSFW.html': 'details',
    'details-US-B073WRF565.html': 'details',
    'details-US-B07G2L3JMM.html': 'details',
    'details-US-B0DR8G428S.html': 'details',
    'search-DE-plastikfrei-besteck.html': 'search',
    'search-DE-plastikfrei-fuer-einsteiger.html': 'search',
    'search-DE-plastikfrei-gemuesebeutel.html': 'search',
    'search-US-portable-charger.html': 'search',
  };
  it.each(Object.entries(expected))('%s -> %s', (file, kind) => {
    expect(detectPageKind(read(file))).toBe(kind);
  });

  // Offers, best-seller and review pages (issue 15) are kinds of their own, classified elsewhere.
  it('covers every details, search and captcha fixture page', () => {
    const files = fs.readdirSync(dir).filter((f) => /^(captcha|details|search)-.*\.html$/.test(f));
    expect(files.sort()).toEqual(Object.keys(expected).sort());
  });

  it('the captcha page yields no product and no results', () => {
    const html = read('captcha-1.html');
    expect(parseDetailsPage(html, { marketplace: 'US', origin: 'https://www.amazon.com' })).toBeNull();
    expect(parseSearchPage(html, { marketplace: 'US', origin: 'https://www.amazon.com' })).toEqual([]);
  });
});

describe('detectPageKind on synthetic interstitials', () => {
  const wrap = (head: string, body: string): string =>
    `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

  it.each([
    ['robot check title', wrap('<title dir="ltr">Robot Check</title>', '<p>x</p>')],
    ['validateCaptcha form', wrap('<title>Amazon.com</title>', '<form method="get" action="/errors/validateCaptcha"></form>')],
    ['captcha input', wrap('<title>Amazon.de</title>', '<input id="captchacharacters" name="field-keywords">')],
    ['automated access comment', wrap('<title>Amazon.fr</title>', '<!-- contact api-services-support@amazon.com -->')],
    ['de text', wrap('<title>Amazon.de</title>', '<h4>Geben Sie die Zeichen unten ein</h4>')],
    ['fr text', wrap('<title>Amazon.fr</title>', '<h4>Saisissez les caractères que vous voyez ci-dessous</h4>')],
    ['es text', wrap('<title>Amazon.es</title>', '<h4>Introduce los caracteres que ves a continuación</h4>')],
    ['it text', wrap('<title>Amazon.it</title>', '<h4>Inserisci i caratteri visualizzati nello spazio sottostante</h4>')],
    ['pt text', wrap('<title>Amazon.com.br</title>', '<h4>Digite os caracteres que você vê abaixo</h4>')],
    ['ja text', wrap('<title>Amazon.co.jp</title>', '<h4>表示されている文字を入力してください</h4>')],
    ['en text', wrap('<title>Amazon.ca</title>', "<p>Sorry, we just need to make sure you're not a robot.</p>")],
  ])('%s -> captcha', (_name, html) => {
    expect(detectPageKind(html)).toBe('captcha');
  });

  it('classifies minimal detail and search markup', () => {
    expect(detectPageKind(wrap('<title>x</title>', '<span id="productTitle">Thing</span>'))).toBe('details');
    expect(
      detectPageKind(wrap('<title>x</title>', '<div data-component-type="s-search-result" class="s-result-item" data-asin="B000000001"></div>')),
    ).toBe('search');
    expect(detectPageKind(wrap('<title>Page Not Found</title>', '<p>Sorry</p>'))).toBe('unknown');
    expect(detectPageKind('')).toBe('unknown');
  });
});
