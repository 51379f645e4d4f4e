/**
 * The three answers of the "Deliver to" flow (docs/crawling.md, "Delivery location"), as the
 * real site gives them: the home page, whose `#nav-global-location-data-modal-action` carries the
 * modal's settings (`data-a-modal`, HTML-escaped JSON with the `anti-csrftoken-a2z` header the
 * modal's request sends); the modal's address selections, a fragment of HTML and script holding
 * the CSRF token of the address change; and the address change's JSON answer.
 */
import { glowBlock, type SessionLocation } from './delivery-location';
import { escapeHtml } from './html';
import type { MarketLocale } from './locale';

export const HOME_PATHS = new Set(['/', '/ref=nav_logo', '/gp/homepage.html']);
export const SELECTIONS_PATH = '/portal-migration/hz/glow/get-rendered-address-selections';
export const ADDRESS_CHANGE_PATH = '/portal-migration/hz/glow/address-change';
const SELECTIONS_URL = `${SELECTIONS_PATH}?deviceType=desktop&pageType=Gateway&storeContext=NoStoreName&actionSource=desktop-modal`;

/** JSON in a double-quoted attribute, escaped with named references as Amazon writes it (`{&quot;width&quot;:375,...}`). */
const attributeJson = (value: unknown): string =>
  JSON.stringify(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The home page of a marketplace for a session: its navigation with the location modal's settings and the deliver-to block. */
export function homePage(locale: MarketLocale, modalToken: string, postalCode: string | null): Buffer {
  const modal = {
    width: 375,
    closeButton: 'false',
    popoverLabel: 'Choose your location',
    ajaxHeaders: { 'anti-csrftoken-a2z': modalToken },
    name: 'glow-modal',
    url: SELECTIONS_URL,
    footer:
      '<span class="a-declarative" data-action="a-popover-close" data-a-popover-close="{}"><span class="a-button a-button-primary"><span class="a-button-inner"><button name="glowDoneButton" class="a-button-text" type="button">Done</button></span></span></span>',
    header: 'Choose your location',
  };
  const block = glowBlock(locale, postalCode).replace(
    'data-action="a-modal"',
    `data-action="a-modal" data-a-modal="${attributeJson(modal)}"`,
  );
  return Buffer.from(`<!doctype html>
<html lang="${locale.htmlLang}" class="a-no-js" data-19ax5a9jf="dingo"><head>
<meta charset="utf-8">
<title>${escapeHtml(locale.siteName)}. Spend less. Smile more.</title>
<link rel="canonical" href="${locale.origin}/" />
</head>
<body class="a-m-${locale.code.toLowerCase()} a-aui_72554-c">
<div id="a-page">
<header id="navbar-main" class="nav-opaque"><div id="nav-belt"><div class="nav-left"><a href="${locale.origin}/ref=nav_logo" id="nav-logo-sprites" class="nav-logo-link nav-progressive-attribute" aria-label="Amazon"><span class="nav-sprite nav-logo-base"></span></a>${block}</div>
<div class="nav-fill"><form id="nav-search-bar-form" accept-charset="utf-8" action="${locale.origin}/s/ref=nb_sb_noss" method="GET" role="search"><input type="text" id="twotabsearchtextbox" value="" name="field-keywords" autocomplete="off"></form></div></div></header>
<div id="pageContent" role="main"><div id="gw-layout"><h1 class="a-size-large">${escapeHtml(locale.siteName)}</h1></div></div>
</div>
</body></html>
`);
}

/** The modal's body: the address selections and the script that configures the address change, with its CSRF token. */
export function selectionsFragment(locale: MarketLocale, csrfToken: string): Buffer {
  return Buffer.from(`<div id="GLUXWidget" class="a-section glow-toaster-body">
<div class="a-section a-spacing-base"><span class="a-size-medium">Delivery options and delivery speeds may vary for different locations</span></div>
<div id="GLUXZipInputSection" class="a-section a-spacing-none"><div class="a-row"><span class="a-size-base">${escapeHtml(locale.code === 'US' ? 'or enter a US zip code' : 'or enter a postcode')}</span></div>
<div class="a-row a-spacing-micro"><span class="a-declarative" data-action="GLUXPostalInputAction"><input type="text" maxlength="10" id="GLUXZipUpdateInput" class="GLUX_Full_Width a-declarative" aria-label="or enter a US zip code"></span>
<span class="a-button a-button-span4" id="GLUXZipUpdate"><span class="a-button-inner"><input class="a-button-input" type="submit" aria-labelledby="GLUXZipUpdate-announce"><span id="GLUXZipUpdate-announce" class="a-button-text" aria-hidden="true">Apply</span></span></span></div></div>
</div>
<script type="text/javascript">
P.when('A', 'GLUXWidgetController').execute(function (A, GLUXWidgetController) {
  var GLUXConfig = {
    IS_ADDRESS_LIST_ENABLED : 0,
    CSRF_TOKEN : "${csrfToken}",
    ADDRESS_CHANGE_URL : "${ADDRESS_CHANGE_PATH}?actionSource=glow",
    MARKETPLACE_ID : "${escapeHtml(locale.amazonSeller.id)}",
    COUNTRY_CODE : "${locale.code === 'UK' ? 'GB' : locale.code}"
  };
  GLUXWidgetController.init(GLUXConfig);
});
</script>
`);
}

/** The address change's answer: the place is set (or not, and why) as the real site's JSON says it. */
export function addressChangeAnswer(
  outcome: { valid: false } | { valid: true; updated: boolean; location: SessionLocation; city: string },
): Buffer {
  if (!outcome.valid)
    return Buffer.from(JSON.stringify({ isValidAddress: 0, isTransitOutOfAis: 0, isAddressUpdated: 0, successful: 0, address: null }));
  const { updated, location, city } = outcome;
  return Buffer.from(
    JSON.stringify({
      isValidAddress: 1,
      isTransitOutOfAis: 0,
      sembuUpdated: updated ? 1 : 0,
      isAddressUpdated: updated ? 1 : 0,
      successful: updated ? 1 : 0,
      address: {
        zipCode: location.postalCode,
        city: city.toUpperCase(),
        countryCode: location.marketplace === 'UK' ? 'GB' : location.marketplace,
        locationType: 'LOCATION_INPUT',
        isDefaultShippingAddress: 'false',
      },
    }),
  );
}
