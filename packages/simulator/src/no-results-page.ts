/**
 * The marketplace's answer to a keyword without any result (2019+ layout): a search page whose
 * search box holds the keyword, whose result-info bar says "No results for <keyword>." and whose
 * result list holds only the no-results messaging widget. Served for a keyword whose page count
 * is 0 (`/__sim/pages`, `Simulator.setPageCounts`).
 */
import { navBelt } from './delivery-location';
import { marketLocale } from './locale';
import { escapeHtml } from './synthetic';

export function noResultsSearchPage(keyword: string): Buffer {
  const shown = escapeHtml(keyword.trim().replace(/\s+/g, ' '));
  return Buffer.from(`<!doctype html>
<html lang="en-us" class="a-no-js"><head>
<meta charset="utf-8">
<title>Amazon.com : ${shown}</title>
</head>
<body class="a-m-us a-aui_72554-c">
<div id="a-page">${navBelt(marketLocale('US'))}
<form class="nav-searchbar" role="search" action="/s" method="GET"><input type="text" id="twotabsearchtextbox" value="${shown}" name="field-keywords"></form>
<div id="search"><div class="s-desktop-width-max s-desktop-content s-opposite-dir sg-row">
<div class="sg-col-20-of-24 s-matching-dir sg-col-16-of-20 sg-col sg-col-8-of-12 sg-col-12-of-16"><div class="sg-col-inner">
<span class="rush-component s-latency-cf-section"><div class="s-main-slot s-result-list s-search-results sg-row">
<div class="s-result-item s-widget sg-col-0-of-12 sg-col-16-of-20 sg-col sg-col-12-of-16" data-component-type="s-result-info-bar"><div class="sg-col-inner"><span>No results for </span><span class="a-color-state a-text-bold">${shown}</span>.</div></div>
<div class="s-result-item s-widget s-flex-full-width" data-component-type="s-messaging-widget"><div class="sg-col-inner"><div class="a-section a-spacing-none s-no-outline"><span class="a-size-medium a-color-base">No results for </span><span class="a-size-medium a-color-base a-text-bold">${shown}</span><span class="a-size-medium a-color-base">.</span></div><div class="a-row"><span class="a-size-medium a-color-base">Try checking your spelling or use more general terms</span></div></div></div>
</div></span>
</div></div>
</div></div>
</div>
</body></html>
`);
}
