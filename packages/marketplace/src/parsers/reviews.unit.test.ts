/**
 * Expected values were read from the fixture HTML: [data-hook="review"] blocks (element id,
 * review-star-rating / cmps-review-star-rating alt texts, review-title, review-date,
 * format-strip, avp-badge, review-body, helpful-vote-statement), the average-star-rating and
 * total-review-count hooks, #histogramTable rows and the a-pagination "Next" item.
 */
import { parsedReviewsPageSchema } from '@crawl/core';
import { detectPageKind } from './page-kind';
import { parseHelpfulVotes, parseReviewsPage } from './reviews';
import { PARSER_VERSION, type ReviewItem, type ReviewsPage } from './types';
import { describeOnRealPages, readRealPage } from '../test-support/real-pages';

const d = describeOnRealPages;

const CTX: Record<string, { marketplace: string; origin: string }> = {
  US: { marketplace: 'US', origin: 'https://www.amazon.com' },
  UK: { marketplace: 'UK', origin: 'https://www.amazon.co.uk' },
  IT: { marketplace: 'IT', origin: 'https://www.amazon.it' },
};

const cache = new Map<string, ReviewsPage>();
function parse(file: string): ReviewsPage {
  if (!cache.has(file)) {
    const page = parseReviewsPage(readRealPage(file), CTX[file.split('-')[1]!]!);
    if (!page) throw new Error(`${file} did not parse as a reviews page`);
    cache.set(file, page);
  }
  return cache.get(file) as ReviewsPage;
}

/** A review with its body checked by start and end (bodies run to thousands of characters). */
function expectReview(
  actual: ReviewItem | undefined,
  expected: Omit<ReviewItem, 'body' | 'parserVersion'> & { bodyStart: string | null; bodyEnd?: string },
): void {
  const { bodyStart, bodyEnd, ...fields } = expected;
  expect(actual).toBeDefined();
  const { body, parserVersion, ...rest } = actual!;
  expect(rest).toEqual(fields);
  expect(parserVersion).toBe(PARSER_VERSION);
  if (bodyStart === null) expect(body).toBeNull();
  else {
    expect(body?.startsWith(bodyStart)).toBe(true);
    if (bodyEnd) expect(body?.endsWith(bodyEnd)).toBe(true);
  }
}

d('parseReviewsPage: amazon.com monitor, Jan 2024 (variant filter active)', () => {
  const file = 'reviews-US-B01IPHVFUI.html';

  it('product summary uses the global ratings, not the filtered count; next page linked', () => {
    const page = parse(file);
    expect(page.product).toEqual({
      asin: 'B01IPHVFUI',
      title:
        'Samsung CF390 Series 27 inch FHD 1920x1080 Curved Desktop Monitor for Business, HDMI, VGA, VESA mountable, 3-Year Warranty, TAA (C27F390FHN), Black',
      rating: 4.6,
      ratingsCount: 25181,
      histogram: { fiveStar: 80, fourStar: 12, threeStar: 4, twoStar: 2, oneStar: 3 },
    });
    expect(page.hasNextPage).toBe(true);
    expect(page.reviews).toHaveLength(10);
    expect(() => parsedReviewsPageSchema.parse(page)).not.toThrow();
  });

  it('first review: title without the star text, English US date, no votes yet', () => {
    expectReview(parse(file).reviews[0], {
      id: 'R2IWYAXSM40X0F',
      rating: 3,
      title: 'Randomly cuts off',
      bodyStart: 'This is a pretty standard monitor and it does everything',
      bodyEnd: 'it probably has blanked 20-30 times.',
      author: 'Paxton',
      date: '2024-01-06',
      dateText: 'Reviewed in the United States on January 6, 2024',
      country: 'United States',
      verifiedPurchase: true,
      helpfulVotes: 0,
      variant: 'Size: 27-Inch | Style: Curved | Set: DP/HDMI 3-Yr Warranty',
      missingFields: [],
    });
  });

  it('last review, and the vote counts and verified flags of the page', () => {
    const reviews = parse(file).reviews;
    expectReview(reviews[9], {
      id: 'R2T4B2N2I4AQIB',
      rating: 5,
      title: 'Started With One . . . Now I Have Quad-Monitor Setup!!',
      bodyStart: 'I love this monitor! I started with two because',
      bodyEnd: 'Good luck!!',
      author: 'WonderWomanRules',
      date: '2023-10-20',
      dateText: 'Reviewed in the United States on October 20, 2023',
      country: 'United States',
      verifiedPurchase: true,
      helpfulVotes: 12,
      variant: 'Size: 27-Inch | Style: Curved | Set: DP/HDMI 3-Yr Warranty',
      missingFields: [],
    });
    // "One person found this helpful" (x2), "3 people found this helpful", "12 people ...".
    expect(reviews.map((r) => r.helpfulVotes)).toEqual([0, 0, 0, 0, 1, 0, 0, 3, 1, 12]);
    expect(reviews.map((r) => r.verifiedPurchase)).toEqual([true, true, true, true, true, true, false, true, true, true]);
    expect(reviews.map((r) => r.rating)).toEqual([3, 4, 5, 3, 5, 2, 1, 5, 4, 5]);
  });

  it('line breaks of a body are kept as newlines', () => {
    const body = parse(file).reviews.find((r) => r.id === 'R2GC64A0LT2I1')!.body!;
    expect(body.startsWith('tl;dr - The "DP/HDMI 3-Yr Warranty" version (C27F390FHN) only has VGA and HDMI, not DisplayPort.\n')).toBe(
      true,
    );
  });
});

d('parseReviewsPage: amazon.it Kindle Paperwhite, 2019 layout', () => {
  const file = 'reviews-IT-B07747FR44.html';

  it('product summary with comma decimals and dotted thousands', () => {
    const page = parse(file);
    expect(page.product).toEqual({
      asin: 'B07747FR44',
      title: 'Kindle Paperwhite, resistente all\'acqua, schermo ad alta risoluzione da 6", 8 GB, include offerte speciali',
      rating: 4.7,
      ratingsCount: 2345,
      histogram: { fiveStar: 79, fourStar: 14, threeStar: 4, twoStar: 1, oneStar: 2 },
    });
    expect(page.hasNextPage).toBe(true);
    expect(page.reviews).toHaveLength(10);
  });

  it('first and last reviews: Italian date without country, "921 persone l\'hanno trovato utile"', () => {
    const reviews = parse(file).reviews;
    expectReview(reviews[0], {
      id: 'R3OXHZOZ0WM7AZ',
      rating: 5,
      title: 'SONO RIUSCITI A MIGLIORARLO ANCORA!!!',
      bodyStart: 'Ciao a tutti io sono Gianni e oggi se vorrete vi racconterò',
      author: 'Darkphoenix',
      date: '2018-11-14',
      dateText: '14 novembre 2018',
      country: null,
      verifiedPurchase: true,
      helpfulVotes: 921,
      variant: 'Connettività: Wi-Fi | Memoria: 8 | Configurazione: Con offerte speciali',
      missingFields: [],
    });
    expectReview(reviews[9], {
      id: 'R19GB65ZSV65JP',
      rating: 3,
      title: 'Kindle Paperwhite modello 2018 - Progressi e regressi insieme.',
      bodyStart: "Questo è il terzo Paperwhite che acquisto. E' quindi un prodotto che conosco bene.",
      author: 'Narduzzi Walter',
      date: '2018-12-02',
      dateText: '2 dicembre 2018',
      country: null,
      verifiedPurchase: true,
      helpfulVotes: 24,
      variant: 'Connettività: Wi-Fi | Memoria: 8 | Configurazione: Con offerte speciali',
      missingFields: [],
    });
    expect(reviews.map((r) => r.helpfulVotes)).toEqual([921, 669, 215, 162, 139, 117, 51, 47, 35, 24]);
    expect(reviews.map((r) => r.date)).toEqual([
      '2018-11-14',
      '2018-11-12',
      '2018-11-23',
      '2018-11-23',
      '2018-11-20',
      '2018-11-24',
      '2019-04-14',
      '2018-12-04',
      '2018-11-13',
      '2018-12-02',
    ]);
  });
});

d('parseReviewsPage: amazon.co.uk pool, page 10 (reviews from other countries)', () => {
  const file = 'reviews-UK-B086X5XDD3-p10.html';

  it('last page: no next page; the empty first #histogramTable is skipped', () => {
    const page = parse(file);
    expect(page.product).toEqual({
      asin: 'B086X5XDD3',
      title:
        'Duerer Inflatable Swimming Pools, 241cm x 142cm x 56cm Inflatable Paddling Pools for Kids Toddlers Adults, Full-Sized Family Blow up Pool Inflatable for Backyard Garden Outdoor, Easy Set',
      rating: 3.9,
      ratingsCount: 1140,
      histogram: { fiveStar: 53, fourStar: 20, threeStar: 6, twoStar: 5, oneStar: 16 },
    });
    expect(page.hasNextPage).toBe(false);
    expect(page.reviews).toHaveLength(10);
  });

  it('first review: original-language title (the translated span is empty), cmps star hook, country from the date line', () => {
    expectReview(parse(file).reviews[0], {
      id: 'RVSUCWZO21X9W',
      rating: 3,
      title: 'Ordinata 241per 141 in realtà esterna misura 130 per 229una bella differenzaJ una',
      bodyStart: 'Misure molto più piccole',
      bodyEnd: 'Misure molto più piccole',
      author: 'faustino pietro',
      date: '2022-07-16',
      dateText: 'Reviewed in Italy on 16 July 2022',
      country: 'Italy',
      verifiedPurchase: true,
      helpfulVotes: 18,
      variant: 'Size Name: S( 241cm x 142cm x 56cm) | Colour Name: Blue',
      missingFields: [],
    });
  });

  it('an image-only review has a null body; countries and dates of the page', () => {
    const reviews = parse(file).reviews;
    expectReview(reviews[2], {
      id: 'RYJBD0NLT85NT',
      rating: 5,
      title: 'Bon produit',
      bodyStart: null,
      author: 'adlene',
      date: '2022-07-03',
      dateText: 'Reviewed in Canada on 3 July 2022',
      country: 'Canada',
      verifiedPurchase: true,
      helpfulVotes: 0,
      variant: 'Size Name: S( 241cm x 142cm x 56cm) | Colour Name: Blue',
      missingFields: ['body'],
    });
    expect(reviews.map((r) => r.country)).toEqual([
      'Italy',
      'Spain',
      'Canada',
      'Italy',
      'France',
      'Spain',
      'Germany',
      'United States',
      'United States',
      'United States',
    ]);
    expect(reviews.map((r) => r.date)).toEqual([
      '2022-07-16',
      '2023-07-05',
      '2022-07-03',
      '2022-07-21',
      '2022-06-06',
      '2022-05-21',
      '2021-06-20',
      '2022-08-17',
      '2022-07-24',
      '2023-01-16',
    ]);
    expect(reviews.map((r) => r.helpfulVotes)).toEqual([18, 0, 0, 2, 0, 38, 0, 0, 0, 0]);
    expectReview(reviews[9], {
      id: 'R14WB6SXDGHMO3',
      rating: 3,
      title: 'Small',
      bodyStart: 'Small',
      bodyEnd: 'Small',
      author: 'Scott',
      date: '2023-01-16',
      dateText: 'Reviewed in the United States on 16 January 2023',
      country: 'United States',
      verifiedPurchase: true,
      helpfulVotes: 0,
      variant: 'Size Name: S( 241cm x 142cm x 56cm) | Colour Name: Blue',
      missingFields: [],
    });
  });
});

describe('parseReviewsPage: German page in the 2024+ layout (built from its known structure)', () => {
  // List histogram (ul#histogramTable), collapsed body with a "Read more" toggle, a "show more" button.
  const html = `<html><head><link rel="canonical" href="https://www.amazon.de/product-reviews/B0TEST0002"></head><body>
<div id="cm_cr-product_info"><a data-hook="product-link" class="a-link-normal" href="/Akku-Bohrschrauber/dp/B0TEST0002/ref=cm_cr_arp_d_product_top">Akku-Bohrschrauber 18V</a>
<i data-hook="average-star-rating" class="a-icon a-icon-star a-star-4-5"><span class="a-icon-alt">4,4 von 5 Sternen</span></i>
<span data-hook="total-review-count" class="a-size-base a-color-secondary">1.234 globale Bewertungen</span>
<ul id="histogramTable" class="a-unordered-list a-nostyle a-vertical">
 <li><span class="a-list-item"><a aria-label="70 Prozent der Bewertungen haben 5 Sterne" href="#"><div class="a-section">5 Sterne</div><div class="a-meter" role="progressbar" aria-valuenow="70%"></div><div class="a-section a-text-right"><span>70 %</span></div></a></span></li>
 <li><span class="a-list-item"><a aria-label="15 Prozent der Bewertungen haben 4 Sterne" href="#"><div class="a-section">4 Sterne</div><div class="a-section a-text-right"><span>15 %</span></div></a></span></li>
 <li><span class="a-list-item"><a aria-label="5 Prozent der Bewertungen haben 3 Sterne" href="#"><div class="a-section">3 Sterne</div><div class="a-section a-text-right"><span>5 %</span></div></a></span></li>
 <li><span class="a-list-item"><a aria-label="3 Prozent der Bewertungen haben 2 Sterne" href="#"><div class="a-section">2 Sterne</div><div class="a-section a-text-right"><span>3 %</span></div></a></span></li>
 <li><span class="a-list-item"><a aria-label="7 Prozent der Bewertungen haben 1 Stern" href="#"><div class="a-section">1 Stern</div><div class="a-section a-text-right"><span>7 %</span></div></a></span></li>
</ul></div>
<div id="cm_cr-review_list" class="a-section review-views">
<li id="R1ABCDEFGHIJK" data-hook="review" class="review aok-relative"><div id="customer_review-R1ABCDEFGHIJK" class="a-section celwidget">
 <div data-hook="genome-widget" class="a-row a-spacing-mini"><a href="/gp/profile/amzn1.account.X" class="a-profile"><div class="a-profile-content"><span class="a-profile-name">Jürgen M.</span></div></a></div>
 <div class="a-row"><a data-hook="review-title" class="a-link-normal review-title" href="/gp/customer-reviews/R1ABCDEFGHIJK"><i data-hook="review-star-rating" class="a-icon a-icon-star a-star-4 review-rating"><span class="a-icon-alt">4,0 von 5 Sternen</span></i><span class="a-letter-space"></span><span>Solide Maschine</span></a></div>
 <span data-hook="review-date" class="review-date">Rezension aus Deutschland 🇩🇪 am 5. März 2025</span>
 <div class="a-row review-format-strip"><span data-hook="format-strip-linkless" class="a-color-secondary">Farbe: Blau<i class="a-icon a-icon-text-separator" role="img" aria-label="|"></i>Stil: Mit 2 Akkus</span><i class="a-icon a-icon-text-separator"></i><span data-hook="avp-badge-linkless" class="a-color-state">Verifizierter Kauf</span></div>
 <div class="a-row review-data"><span data-hook="review-body" class="review-text"><div data-hook="review-collapsed" class="a-expander-content reviewText review-text-content a-expander-partial-collapse-content"><span>Gute Leistung.<br>Akku hält lange.</span></div><div class="a-expander-header"><a data-hook="expand-collapse-read-more-less" href="javascript:void(0)">Mehr lesen</a></div></span></div>
 <div class="a-row"><span data-hook="review-voting-widget" class="cr-vote"><span data-hook="helpful-vote-statement">Eine Person fand diese Informationen hilfreich</span></span></div>
</div></li>
</div>
<div class="a-section"><span class="a-button"><a data-hook="show-more-button" href="#">Weitere Bewertungen</a></span></div>
</body></html>`;

  it('reads the summary, the review and sees more reviews', () => {
    const page = parseReviewsPage(html, { marketplace: 'DE', origin: 'https://www.amazon.de' })!;
    expect(page.product).toEqual({
      asin: 'B0TEST0002',
      title: 'Akku-Bohrschrauber 18V',
      rating: 4.4,
      ratingsCount: 1234,
      histogram: { fiveStar: 70, fourStar: 15, threeStar: 5, twoStar: 3, oneStar: 7 },
    });
    expect(page.hasNextPage).toBe(true);
    expect(page.reviews).toEqual([
      {
        id: 'R1ABCDEFGHIJK',
        rating: 4,
        title: 'Solide Maschine',
        body: 'Gute Leistung.\nAkku hält lange.',
        author: 'Jürgen M.',
        date: '2025-03-05',
        dateText: 'Rezension aus Deutschland 🇩🇪 am 5. März 2025',
        country: 'Deutschland',
        verifiedPurchase: true,
        helpfulVotes: 1,
        variant: 'Farbe: Blau | Stil: Mit 2 Akkus',
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
    ]);
  });
});

describe('parseHelpfulVotes', () => {
  it.each([
    ['One person found this helpful', 1],
    ['2 people found this helpful', 2],
    ['1,234 people found this helpful', 1234],
    ['Una persona lo ha trovato utile', 1],
    ["921 persone l'hanno trovato utile", 921],
    ['Eine Person fand diese Informationen hilfreich', 1],
    ['1.234 Personen fanden diese Informationen hilfreich', 1234],
    ['Une personne a trouvé cela utile', 1],
    ['12 personnes ont trouvé cela utile', 12],
    ['A una persona le ha parecido esto útil', 1],
    ['A 3 personas les ha parecido esto útil', 3],
    ['Uma pessoa achou isso útil', 1],
    ['3 pessoas acharam isso útil', 3],
    ['3 mensen vonden dit nuttig', 3],
    ['3 personer tyckte att detta var till hjälp', 3],
    ['3 osoby uznały to za przydatne', 3],
    ['3 kişi bunu faydalı buldu', 3],
    ['5人のお客様がこれが役に立ったと考えています', 5],
    ['أعجب ٣ أشخاص بهذا', 3],
    ['', null],
  ])('%s -> %s', (text, votes) => {
    expect(parseHelpfulVotes(text)).toBe(votes);
  });
});

describe('parseReviewsPage: sign-in wall and other pages', () => {
  const signIn = `<!doctype html><html lang="en-us"><head><meta charset="utf-8"><title dir="ltr">Amazon Sign-In</title></head>
<body class="ap-locale-en_US a-m-us"><div id="a-page"><div class="a-section a-padding-medium auth-workflow">
<div id="authportal-center-section" class="a-section"><div id="authportal-main-section" class="a-section">
<form name="signIn" method="post" novalidate action="https://www.amazon.com/ap/signin" class="auth-validate-form a-spacing-none">
<input type="hidden" name="appAction" value="SIGNIN_PWD_COLLECT"><input type="hidden" name="openid.return_to" value="ape:aHR0cHM6Ly93d3cuYW1hem9uLmNvbS9wcm9kdWN0LXJldmlld3MvQjAxSVBIVkZVSQ==">
<h1 class="a-spacing-small">Sign in</h1><label for="ap_email" class="a-form-label">Email or mobile phone number</label>
<input type="email" maxlength="128" id="ap_email" name="email" class="a-input-text a-span12 auth-autofocus auth-required-field">
<span class="a-button a-button-primary"><span class="a-button-inner"><input id="continue" class="a-button-input" type="submit"><span class="a-button-text">Continue</span></span></span>
</form></div></div></div></div></body></html>`;

  it('a sign-in wall is recognised and yields no reviews page (the crawler fails it as BLOCKED)', () => {
    expect(detectPageKind(signIn)).toBe('signin');
    expect(parseReviewsPage(signIn, CTX.US!)).toBeNull();
  });

  d('the saved sign-in pages', () => {
    it.each([
      ['signin-IN-B0CZXXSC3C.html', 'IN'],
      ['signin-US-1.html', 'US'],
    ])('%s is a sign-in wall and yields no reviews page', (file, marketplace) => {
      const html = readRealPage(file);
      expect(detectPageKind(html)).toBe('signin');
      expect(parseReviewsPage(html, CTX[marketplace] ?? { marketplace, origin: 'https://www.amazon.in' })).toBeNull();
    });
  });

  it('pages that are not review pages yield null', () => {
    expect(parseReviewsPage('', CTX.US!)).toBeNull();
    expect(parseReviewsPage('<html><body><p>Page not found</p></body></html>', CTX.US!)).toBeNull();
    expect(
      parseReviewsPage('<html><body><form action="/errors/validateCaptcha"><input id="captchacharacters"></form></body></html>', CTX.US!),
    ).toBeNull();
  });

  it('a product without reviews yields its summary and no reviews', () => {
    const html = `<html><body><div id="cm_cr-product_info"><a data-hook="product-link" href="/Thing/dp/B000000001">Thing</a>
<i data-hook="average-star-rating" class="a-icon a-icon-star"><span class="a-icon-alt">0 out of 5 stars</span></i>
<span data-hook="total-review-count">0 global ratings</span></div><div id="cm_cr-review_list"><span class="no-reviews-section">No customer reviews</span></div></body></html>`;
    expect(parseReviewsPage(html, CTX.US!)).toEqual({
      product: { asin: 'B000000001', title: 'Thing', rating: 0, ratingsCount: 0, histogram: null },
      hasNextPage: false,
      reviews: [],
    });
  });
});
