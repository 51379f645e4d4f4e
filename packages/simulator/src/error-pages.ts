/**
 * Bodies of the non-page answers (error statuses, 404, built-in captcha). Built once per status
 * and reused, so a fault storm costs no more than serving pages.
 */
import { STATUS_CODES } from 'node:http';

const statusCache = new Map<number, Buffer>();

/** Small HTML body like Amazon's "Sorry! Something went wrong!" error page. */
export function statusPage(status: number): Buffer {
  let body = statusCache.get(status);
  if (!body) {
    const reason = STATUS_CODES[status] ?? 'Error';
    body = Buffer.from(
      `<!doctype html><html lang="en-us"><head><meta charset="utf-8"><title>Sorry! Something went wrong!</title></head>` +
        `<body><div id="g"><h1>Sorry! Something went wrong!</h1>` +
        `<p>We're sorry, an error has occurred. Please try again later. (${status} ${reason})</p>` +
        `<a href="/ref=cs_${status}_logo"><img alt="Amazon.com" src="https://images-na.ssl-images-amazon.com/images/G/01/error/logo._TTD_.png"></a>` +
        `</div></body></html>`,
    );
    statusCache.set(status, body);
  }
  return body;
}

/** Amazon's 404 ("dogs of Amazon") page, reduced to the parts a crawler could key on. */
export const NOT_FOUND_PAGE = Buffer.from(
  `<!doctype html><html lang="en-us"><head><meta charset="utf-8"><title>Page Not Found</title></head>` +
    `<body><div id="g"><a href="/ref=cs_404_logo"><img alt="Amazon" src="https://images-na.ssl-images-amazon.com/images/G/01/error/logo._TTD_.png"></a>` +
    `<a href="/ref=cs_404_link"><img alt="Sorry! We couldn't find that page. Try searching or go to Amazon's home page." ` +
    `src="https://images-na.ssl-images-amazon.com/images/G/01/error/title._TTD_.png"></a>` +
    `<p>Sorry! We couldn't find that page. Try searching or go to Amazon's home page.</p>` +
    `<a href="/dogsofamazon/ref=cs_404_d"><img alt="Dogs of Amazon" src="https://images-na.ssl-images-amazon.com/images/G/01/error/1._TTD_.jpg"></a>` +
    `</div></body></html>`,
);

/**
 * Stand-in for the classic "Robot Check" interstitial when no captcha fixture exists: the
 * same title, form action, captcha input and instructions a page classifier keys on.
 */
export const SYNTHETIC_CAPTCHA_PAGE = Buffer.from(
  `<!DOCTYPE html>
<html class="a-no-js" lang="en-us"><head>
<meta charset="utf-8">
<title dir="ltr">Robot Check</title>
</head>
<body>
<!--
        To discuss automated access to Amazon data please contact api-services-support@amazon.com.
-->
<div class="a-container a-padding-double-large">
  <div class="a-box a-alert a-alert-info a-spacing-base"><div class="a-box-inner">
    <h4>Enter the characters you see below</h4>
    <p class="a-last">Sorry, we just need to make sure you're not a robot. For best results, please make sure your browser is accepting cookies.</p>
  </div></div>
  <form method="get" action="/errors/validateCaptcha" name="">
    <input type=hidden name="amzn" value="c2ltdWxhdG9yLWNhcHRjaGE=" /><input type=hidden name="amzn-r" value="&#047;" />
    <h4>Type the characters you see in this image:</h4>
    <img src="https://images-na.ssl-images-amazon.com/captcha/simulatr/Captcha_simulatorx.jpg">
    <input autocomplete="off" spellcheck="false" placeholder="Type characters" id="captchacharacters" name="field-keywords" type="text">
    <button type="submit" class="a-button-text">Continue shopping</button>
  </form>
</div>
</body></html>
`,
);

/**
 * Amazon's sign-in wall (`/ap/signin`), served with status 200 where a page needs a signed-in
 * session: review pages since late 2024. Reduced to what a page classifier keys on: the title,
 * the `signIn` form posting to /ap/signin and its email field.
 */
export const SIGNIN_WALL_PAGE = Buffer.from(
  `<!DOCTYPE html>
<html class="a-no-js" lang="en-us" data-19ax5a9jf="dingo"><head>
<meta charset="utf-8">
<title dir="ltr">Amazon Sign-In</title>
</head>
<body class="ap-locale-en_US a-m-us a-aui_72554-c">
<div id="a-page"><div class="a-section a-padding-medium auth-workflow">
  <div class="a-section a-spacing-none auth-navbar"><a class="a-link-nav-icon" tabindex="-1" href="/ref=ap_frn_logo"><i class="a-icon a-icon-logo" role="img" aria-label="Amazon"></i></a></div>
  <div id="authportal-center-section" class="a-section"><div id="authportal-main-section" class="a-section">
    <div class="a-box"><div class="a-box-inner a-padding-extra-large">
      <h1 class="a-spacing-small">Sign in</h1>
      <form name="signIn" method="post" novalidate action="https://www.amazon.com/ap/signin" class="auth-validate-form auth-real-time-validation a-spacing-none">
        <input type="hidden" name="appActionToken" value="c2ltdWxhdG9yLXNpZ25pbg==" /><input type="hidden" name="appAction" value="SIGNIN_PWD_COLLECT" />
        <input type="hidden" name="openid.return_to" value="ape:aHR0cHM6Ly93d3cuYW1hem9uLmNvbS9wcm9kdWN0LXJldmlld3M=" />
        <div class="a-section a-spacing-large"><label for="ap_email" class="a-form-label">Email or mobile phone number</label>
        <input type="email" maxlength="128" id="ap_email" name="email" tabindex="1" class="a-input-text a-span12 auth-autofocus auth-required-field"></div>
        <span id="continue" class="a-button a-button-span12 a-button-primary"><span class="a-button-inner"><input id="continue" tabindex="5" class="a-button-input" type="submit" aria-labelledby="continue-announce"><span id="continue-announce" class="a-button-text" aria-hidden="true">Continue</span></span></span>
      </form>
    </div></div>
  </div></div>
</div></div>
</body></html>
`,
);
