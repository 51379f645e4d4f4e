/** Pure pieces of the simulator: slugs, ASIN substitution, rule validation, PRNG, log ring. */
import { AsinTemplate } from './asin-template';
import { FaultEngine, validateRule } from './fault-rules';
import { keywordSlugs } from './keyword-slug';
import { createPrng } from './prng';
import { RequestLog } from './request-log';
import { syntheticAsin, syntheticDetailsPage, syntheticSearchCards, syntheticSearchPage } from './synthetic';

describe('keywordSlugs', () => {
  it('maps spaces to dashes and lower-cases', () => {
    expect(keywordSlugs('Portable  Charger')).toEqual(['portable-charger']);
  });

  it('transliterates German umlauts and also offers the stripped spelling', () => {
    expect(keywordSlugs('plastikfrei für einsteiger')).toEqual(['plastikfrei-fuer-einsteiger', 'plastikfrei-fur-einsteiger']);
    expect(keywordSlugs('Straße')).toEqual(['strasse', 'straße']);
    // Decomposed input (u + U+0308) behaves like the composed character.
    expect(keywordSlugs('gemu\u0308sebeutel')[0]).toBe('gemuesebeutel');
  });

  it('strips other diacritics and keeps non-Latin letters', () => {
    expect(keywordSlugs('café crème')).toEqual(['cafe-creme']);
    expect(keywordSlugs('モバイルバッテリー')).toEqual(['モバイルバッテリー']);
  });
});

describe('AsinTemplate', () => {
  const page = Buffer.from('<input id="ASIN" value="B0OWNASIN0"><a href="/dp/B0OWNASIN0">B0OWNASIN0</a>tail');

  it('replaces every occurrence with a same-length ASIN', () => {
    const t = new AsinTemplate(page, 'B0OWNASIN0');
    expect(t.offsets).toHaveLength(3);
    expect(t.render('B012345678').toString()).toBe(page.toString().split('B0OWNASIN0').join('B012345678'));
  });

  it('handles values of another length and returns the shared page for its own ASIN', () => {
    const t = new AsinTemplate(page, 'B0OWNASIN0');
    expect(t.render('X').toString()).toBe(page.toString().split('B0OWNASIN0').join('X'));
    expect(t.render('LONGER-THAN-TEN').toString()).toBe(page.toString().split('B0OWNASIN0').join('LONGER-THAN-TEN'));
    expect(t.render('B0OWNASIN0')).toBe(page);
  });

  it('recycles released copies without leaking the previous ASIN', () => {
    const t = new AsinTemplate(page, 'B0OWNASIN0', 1);
    const a = t.acquire('B0AAAAAAAA');
    const b = t.acquire('B0BBBBBBBB'); // a is still in use: must be another buffer
    expect(b.body).not.toBe(a.body);
    expect(a.body.toString()).toBe(t.render('B0AAAAAAAA').toString());
    a.release();
    a.release(); // twice is harmless: the pool must not hand the same buffer out twice
    b.release(); // pool of 1 is full: b is dropped
    const c = t.acquire('B0CCCCCCCC');
    expect(c.body).toBe(a.body);
    expect(c.body.toString()).toBe(t.render('B0CCCCCCCC').toString());
    expect(t.acquire('B0DDDDDDDD').body).not.toBe(a.body);
    expect(t.acquire('B0OWNASIN0').body).toBe(page);
  });
});

describe('fault rules', () => {
  it('rejects malformed rules with a TypeError', () => {
    expect(() => validateRule({ fault: { kind: 'nope' } })).toThrow(TypeError);
    expect(() => validateRule({ fault: { kind: 'status', status: 42 } })).toThrow(/status/);
    expect(() => validateRule({ fault: { kind: 'latency' } })).toThrow(/ms/);
    expect(() => validateRule({ fault: { kind: 'empty' }, probability: 2 })).toThrow(/probability/);
    expect(() => validateRule({ fault: { kind: 'empty' }, match: '/(/' })).toThrow(/regular expression/);
  });

  it('keeps the old list when a replacement list is invalid', () => {
    const engine = new FaultEngine(1);
    engine.set([{ fault: { kind: 'empty' } }]);
    expect(() => engine.set([{ fault: { kind: 'hang' } }, { fault: { kind: 'bad' } }])).toThrow(TypeError);
    expect(engine.pick('/dp/B000000000')).toEqual({ kind: 'empty' });
  });

  it('matches substrings and /regex/flags and counts times down', () => {
    const engine = new FaultEngine(1);
    engine.set([
      { match: '/^\\/s\\?k=TV/i', fault: { kind: 'hang' } },
      { match: 'B0AAAAAAAA', fault: { kind: 'reset' }, times: 1 },
    ]);
    expect(engine.pick('/s?k=tv+stand')).toEqual({ kind: 'hang' });
    expect(engine.pick('/s?k=a+tv')).toBeNull();
    expect(engine.pick('/dp/B0AAAAAAAA')).toEqual({ kind: 'reset' });
    expect(engine.pick('/dp/B0AAAAAAAA')).toBeNull();
    expect(engine.list()[1]!.times).toBe(0);
  });

  it("treats '/dp/' as a substring, not as the regex dp", () => {
    const engine = new FaultEngine(1);
    engine.set([
      { match: '/dp/', fault: { kind: 'empty' } },
      { match: '/tv/i', fault: { kind: 'hang' } },
    ]);
    expect(engine.pick('/s?k=dpad')).toBeNull();
    expect(engine.pick('/Some-Slug/dp/B000000000')).toEqual({ kind: 'empty' });
    expect(engine.pick('/s?k=TV')).toEqual({ kind: 'hang' });
  });
});

describe('createPrng', () => {
  it('is reproducible per seed and within [0, 1)', () => {
    const a = createPrng(7);
    const b = createPrng(7);
    const xs = Array.from({ length: 100 }, () => a());
    expect(Array.from({ length: 100 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(createPrng(8)()).not.toBe(xs[0]);
  });
});

describe('RequestLog', () => {
  it('keeps the newest entries in order once full', () => {
    const log = new RequestLog(3);
    for (let i = 0; i < 5; i++) log.push({ method: 'GET', path: `/${i}`, status: 200, at: i, headers: {}, exit: 'direct' });
    expect(log.list().map((e) => e.path)).toEqual(['/2', '/3', '/4']);
    log.reset();
    expect(log.list()).toEqual([]);
  });
});

describe('synthetic pages', () => {
  it('builds an Amazon-shaped details page for the ASIN, deterministically', () => {
    const html = syntheticDetailsPage('B0TEST0001').toString();
    expect(html).toContain('<input type="hidden" id="ASIN" name="ASIN" value="B0TEST0001">');
    expect(html).toMatch(/<link rel="canonical" href="[^"]*\/dp\/B0TEST0001"/);
    for (const marker of [
      'id="productTitle"',
      'Visit the Acme Store',
      '<span class="a-offscreen">$19.99</span>',
      'title="4.5 out of 5 stars"',
      '1,234 ratings',
      'In Stock',
      'data-old-hires=',
      'id="wayfinding-breadcrumbs_feature_div"',
    ]) {
      expect(html).toContain(marker);
    }
    expect(html.match(/<li><span class="a-list-item"> /g)).toHaveLength(3);
    expect(syntheticDetailsPage('B0TEST0001').equals(Buffer.from(html))).toBe(true);
  });

  it('builds 10 result cards, 2 sponsored, derived from the keyword', () => {
    const html = syntheticSearchPage('usb c <cable>').toString();
    expect(html.match(/data-component-type="s-search-result"/g)).toHaveLength(10);
    expect(html.match(/ AdHolder"/g)).toHaveLength(2);
    expect(html.match(/>Sponsored</g)).toHaveLength(2);
    expect(html).not.toContain('<cable>');
    const cards = syntheticSearchCards('usb c <cable>');
    for (const card of cards) expect(html).toContain(`data-asin="${card.asin}"`);
    expect(new Set(cards.map((c) => c.asin)).size).toBe(10);
    expect(syntheticSearchCards('USB  C <cable>').map((c) => c.asin)).toEqual(cards.map((c) => c.asin));
    expect(syntheticSearchCards('other').map((c) => c.asin)).not.toEqual(cards.map((c) => c.asin));
    expect(syntheticAsin('x')).toMatch(/^B0[0-9A-Z]{8}$/);
  });
});
