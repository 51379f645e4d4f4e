import { parseDetailsPage } from './details';
import { MARKETPLACE_KINDS } from '../kinds';
import { type ContentKind, detectPageKind, interstitialKind, LISTING_KINDS } from './page-kind';
import { parseSearchPage } from './search';
import { ownPage, ownPageFiles } from '../test-support/own-pages';
import { describeOnRealPages, readRealPage, realPageFiles } from '../test-support/real-pages';

const d = describeOnRealPages;
const read = (f: string): string => readRealPage(f);

d('detectPageKind on fixture pages', () => {
  const expected: Record<string, string> = {
    'captcha-1.html': 'captcha',
    'details-BR-8565042472.html': 'details',
    'details-BR-B085VK7LYQ.html': 'details',
    'details-BR-B09YRKYRSM.html': 'details',
    'details-DE-B01GAWQSFW.html': 'details',
    'details-ES-B01MUGXRT9.html': 'details',
    'details-ES-B07JH148DF.html': 'details',
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
    'offers-US-0133356728.html': 'offers',
    'offers-US-1133958095.html': 'offers',
    'offers-US-B004OA758C-aod.html': 'offers',
    'bestsellers-IN-books.html': 'bestsellers',
    'bestsellers-US-electronics.html': 'bestsellers',
    // Review pages link /ap/signin (vote buttons, the next page) without being a sign-in wall.
    'reviews-IT-B07747FR44.html': 'reviews',
    'reviews-UK-B086X5XDD3-p10.html': 'reviews',
    'reviews-US-B01IPHVFUI.html': 'reviews',
    // The 2025 unified "Sign in or create account" page a review URL led to, and the classic form.
    'signin-IN-B0CZXXSC3C.html': 'signin',
    'signin-US-1.html': 'signin',
  };
  it('every saved page, and each has an expectation', () => {
    expect(Object.fromEntries(realPageFiles().map((file) => [file, detectPageKind(read(file))]))).toEqual(expected);
  });

  it.each(['signin-IN-B0CZXXSC3C.html', 'signin-US-1.html'])(
    '%s is a sign-in wall whatever page was asked for, and yields no product or results',
    (file) => {
      const html = read(file);
      for (const expected of ['details', 'search', 'offers', 'reviews', 'bestsellers'] as ContentKind[]) {
        expect(interstitialKind(html, expected)).toBe('signin');
      }
      expect(parseDetailsPage(html, { marketplace: 'US', origin: 'https://www.amazon.com' })).toBeNull();
      expect(parseSearchPage(html, { marketplace: 'US', origin: 'https://www.amazon.com' })).toEqual([]);
    },
  );

  it('the captcha page yields no product and no results', () => {
    const html = read('captcha-1.html');
    expect(parseDetailsPage(html, { marketplace: 'US', origin: 'https://www.amazon.com' })).toBeNull();
    expect(parseSearchPage(html, { marketplace: 'US', origin: 'https://www.amazon.com' })).toEqual([]);
  });
});

describe('detectPageKind on our own pages', () => {
  it.each(ownPageFiles())('%s is the kind its name says', (file) => {
    expect(detectPageKind(ownPage(file))).toBe(file.split('-')[0]);
  });

  it('the captcha and the sign-in wall yield no product and no results', () => {
    for (const file of ['captcha-robot-check.html', 'signin-DE-wall.html']) {
      const html = ownPage(file);
      expect(parseDetailsPage(html, { marketplace: 'DE', origin: 'https://www.amazon.de' })).toBeNull();
      expect(parseSearchPage(html, { marketplace: 'DE', origin: 'https://www.amazon.de' })).toEqual([]);
    }
  });
});

describe('detectPageKind on synthetic interstitials', () => {
  const wrap = (head: string, body: string): string => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

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

  it('classifies minimal offers, best-seller and review markup', () => {
    expect(detectPageKind(wrap('<title>x</title>', '<div class="a-row a-spacing-mini olpOffer" role="row"></div>'))).toBe('offers');
    expect(detectPageKind(wrap('<title>x</title>', '<div id="aod-container"><div id="aod-offer-list"></div></div>'))).toBe('offers');
    expect(detectPageKind(wrap('<title>x</title>', '<div id="gridItemRoot" class="a-column"></div>'))).toBe('bestsellers');
    expect(detectPageKind(wrap('<title>x</title>', '<li class="zg-item-immersion"></li>'))).toBe('bestsellers');
    expect(detectPageKind(wrap('<title>x</title>', '<div id="cm_cr-review_list"></div>'))).toBe('reviews');
  });

  it('knows every listing kind of the registry: each job type but search and details', () => {
    const registry = Object.keys(MARKETPLACE_KINDS).filter((kind) => kind !== 'search' && kind !== 'details');
    expect([...LISTING_KINDS].sort()).toEqual(registry.sort());
  });

  it('tells a listing by the first kind whose markup it has: offer rows, then review markup, then a best-seller list', () => {
    const offers = '<div class="a-row olpOffer" role="row"></div>';
    const review = '<div data-hook="review" class="a-section review"></div>';
    const bestsellers = '<div id="gridItemRoot" class="a-column"></div>';
    expect(detectPageKind(wrap('<title>x</title>', bestsellers + review + offers))).toBe('offers');
    expect(detectPageKind(wrap('<title>x</title>', bestsellers + review))).toBe('reviews');
  });

  it('a product page opened on its offers panel (rendered AOD offers) is an offers page; the empty AOD shell is not', () => {
    const product = '<span id="productTitle">Thing</span><input type="hidden" id="ASIN" name="ASIN" value="B000000001">';
    expect(detectPageKind(wrap('<title>x</title>', `${product}<div id="all-offers-display"><div id="aod-background"></div></div>`))).toBe(
      'details',
    );
    expect(detectPageKind(wrap('<title>x</title>', `${product}<div id="all-offers-display"><div id="aod-pinned-offer"></div></div>`))).toBe(
      'offers',
    );
  });

  it('classifies minimal detail and search markup', () => {
    expect(detectPageKind(wrap('<title>x</title>', '<span id="productTitle">Thing</span>'))).toBe('details');
    expect(
      detectPageKind(
        wrap('<title>x</title>', '<div data-component-type="s-search-result" class="s-result-item" data-asin="B000000001"></div>'),
      ),
    ).toBe('search');
    expect(detectPageKind(wrap('<title>Page Not Found</title>', '<p>Sorry</p>'))).toBe('unknown');
    expect(detectPageKind('')).toBe('unknown');
  });
});

/**
 * Amazon's sign-in page (/ap/signin), as served instead of a review page to a session that is not
 * signed in: the auth-workflow layout with form[name="signIn"] and the e-mail field #ap_email
 * (later versions: #ap_email_login), localized per marketplace.
 */
function signInPage(opts: { lang: string; title: string; heading: string; label: string; emailId: string; action: string }): string {
  return `<!doctype html><html lang="${opts.lang}" class="a-no-js"><head><meta charset="utf-8"><title dir="ltr">${opts.title}</title>
<link rel="stylesheet" href="https://m.media-amazon.com/images/I/21lRUrBqv7L.css"></head>
<body class="ap-locale-${opts.lang.replace('-', '_')} a-m-us a-aui_72554-c"><div id="a-page"><div class="a-section a-padding-medium auth-workflow">
<div class="a-section a-spacing-none auth-navbar"><div class="a-section a-spacing-medium a-text-center"><a class="a-link-nav-icon" tabindex="-1" href="/ref=ap_frn_logo"><i class="a-icon a-icon-logo" role="img" aria-label="Amazon"></i></a></div></div>
<div id="authportal-center-section" class="a-section"><div id="authportal-main-section" class="a-section">
<div class="a-section a-spacing-base auth-pagelet-container"><div class="a-section">
<form name="signIn" method="post" novalidate action="${opts.action}" class="auth-validate-form auth-real-time-validation a-spacing-none">
<input type="hidden" name="appActionToken" value="pmvUQHIbj2FkbEb3ANQ9ngvyBpMj3D"><input type="hidden" name="appAction" value="SIGNIN_PWD_COLLECT">
<input type="hidden" name="subPageType" value="SignInClaimCollect"><input type="hidden" name="openid.return_to" value="ape:aHR0cHM6Ly93d3cuYW1hem9uLmRlL3Byb2R1Y3QtcmV2aWV3cy9CMDFJUEhWRlVJ">
<div class="a-box"><div class="a-box-inner a-padding-extra-large"><h1 class="a-spacing-small">${opts.heading}</h1>
<div class="a-row a-spacing-base"><label for="${opts.emailId}" class="a-form-label">${opts.label}</label>
<input type="email" maxlength="128" id="${opts.emailId}" autocomplete="username" name="email" tabindex="1" class="a-input-text a-span12 auth-autofocus auth-required-field"></div>
<div class="a-section"><span id="continue" class="a-button a-button-span12 a-button-primary"><span class="a-button-inner"><input id="continue" tabindex="5" class="a-button-input" type="submit" aria-labelledby="continue-announce"><span id="continue-announce" class="a-button-text" aria-hidden="true">Continue</span></span></span></div>
</div></div></form></div></div></div></div></div></div>
<div id="right-2"></div><div class="a-divider a-divider-section"><div class="a-divider-inner"></div></div>
<div id="footer" class="a-section"><div class="a-section a-spacing-small a-text-center a-size-mini"><span class="auth-footer-seperator"></span>© 1996-2026, Amazon.com, Inc. or its affiliates</div></div>
</body></html>`;
}

describe('detectPageKind on sign-in walls', () => {
  it.each([
    [
      'amazon.com "Sign in"',
      signInPage({
        lang: 'en-us',
        title: 'Amazon Sign-In',
        heading: 'Sign in',
        label: 'Email or mobile phone number',
        emailId: 'ap_email',
        action: 'https://www.amazon.com/ap/signin',
      }),
    ],
    [
      'amazon.de "Anmelden"',
      signInPage({
        lang: 'de-de',
        title: 'Amazon Anmelden',
        heading: 'Anmelden',
        label: 'E-Mail-Adresse oder Mobiltelefonnummer',
        emailId: 'ap_email',
        action: 'https://www.amazon.de/ap/signin',
      }),
    ],
    [
      '2024+ claim form (#ap_email_login)',
      signInPage({
        lang: 'fr-fr',
        title: 'Amazon Connexion',
        heading: 'Identifiez-vous',
        label: 'Adresse e-mail ou numéro de téléphone portable',
        emailId: 'ap_email_login',
        action: '/ax/claim/validate/ref=ap_signin',
      }),
    ],
  ])('%s -> signin', (_name, html) => {
    expect(detectPageKind(html)).toBe('signin');
  });

  it('a page that only links /ap/signin is not a sign-in wall', () => {
    const html = '<html><body><a href="https://www.amazon.com/ap/signin?openid.return_to=x">Hello, sign in</a><p>Sorry</p></body></html>';
    expect(detectPageKind(html)).toBe('unknown');
  });
});

describe('interstitialKind', () => {
  const kinds: ContentKind[] = ['details', 'search', 'offers', 'reviews', 'bestsellers'];
  const wrap = (head: string, body: string): string => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
  const samples: [string, string][] = [
    ['robot check', wrap('<title>Robot Check</title>', '<p>x</p>')],
    [
      'captcha form in site chrome',
      wrap('<title>Amazon.de</title>', '<span id="productTitle">x</span><form action="/errors/validateCaptcha"></form>'),
    ],
    ['localized captcha text', wrap('<title>Amazon.fr</title>', '<h4>Saisissez les caractères que vous voyez ci-dessous</h4>')],
    [
      'sign-in form',
      signInPage({ lang: 'en-us', title: 'Amazon Sign-In', heading: 'Sign in', label: 'Email', emailId: 'ap_email', action: '/ap/signin' }),
    ],
    [
      'sign-in form on a captcha page',
      wrap('<title>Amazon</title>', '<form name="signIn"></form><form action="/errors/validateCaptcha"></form>'),
    ],
    [
      'product page with a sign-in link',
      wrap('<title>x</title>', '<span id="productTitle">x</span><a href="/ap/signin">sign in</a><form name="signIn"></form>'),
    ],
    ['offers panel', wrap('<title>x</title>', '<div id="aod-offer-list"></div>')],
    ['unknown page', wrap('<title>Page Not Found</title>', '<p>Sorry</p>')],
    ['empty', ''],
  ];
  const pages: [string, string][] = [
    ...ownPageFiles().map((f): [string, string] => [f, ownPage(f)]),
    ...realPageFiles().map((f): [string, string] => [f, read(f)]),
  ];

  // what the parse step relies on: whatever kind it expects, the answer is detectPageKind's
  it.each([...samples, ...pages])('%s: detectPageKind when it is an interstitial, else null, for every expected kind', (_name, html) => {
    const kind = detectPageKind(html);
    const expected = kind === 'captcha' || kind === 'signin' ? kind : null;
    for (const k of kinds) expect([k, interstitialKind(html, k)]).toEqual([k, expected]);
  });

  it('sees a captcha and a sign-in wall', () => {
    expect(interstitialKind(samples[0]![1], 'details')).toBe('captcha');
    expect(interstitialKind(samples[3]![1], 'reviews')).toBe('signin');
  });
});
