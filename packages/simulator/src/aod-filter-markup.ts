/**
 * The #aod-filter bar of the All Offers Display panel as a real 2021 panel renders it: the
 * "N other options" count, the condition filter dropdown (New, Used and its four grades) and
 * the swatches of chosen filters (hidden until one is chosen), above and below the list.
 */

interface ConditionFilter {
  id: string;
  /** The checkbox label; a grade is listed under Used by its own name. */
  label: string;
  /** The swatch text of a chosen filter; null: Used itself has none (its grades do). */
  swatch: string | null;
  parent: string;
}

const CONDITIONS: ConditionFilter[] = [
  { id: 'new', label: 'New', swatch: 'New', parent: '' },
  { id: 'used', label: 'Used', swatch: null, parent: '' },
  { id: 'usedLikeNew', label: 'Like New', swatch: 'Used - Like New', parent: 'used' },
  { id: 'usedVeryGood', label: 'Very Good', swatch: 'Used - Very Good', parent: 'used' },
  { id: 'usedGood', label: 'Good', swatch: 'Used - Good', parent: 'used' },
  { id: 'usedAcceptable', label: 'Acceptable', swatch: 'Used - Acceptable', parent: 'used' },
];

const toggle = (c: ConditionFilter) =>
  `<span class="a-declarative" data-action="aod-toggle-filter-checkbox" data-aod-toggle-filter-checkbox="{&quot;refMarker&quot;:&quot;aod_f_${c.id}&quot;,&quot;checkboxID&quot;:&quot;${c.id}&quot;,&quot;parentID&quot;:&quot;${c.parent}&quot;}">`;

function checkbox(c: ConditionFilter): string {
  return `<div class="a-row ${c.parent ? 'aod-filter-subfilter' : 'aod-filter-parent-filter'}">
<div class="a-column a-span12 a-spacing-top-small checkbox-container a-span-last">
<div class="a-row">
${toggle(c)}
<div class="a-column a-span9">
<span class="a-size-base a-color-base">${c.label}</span>
</div>
<div id="${c.id}" class="a-column a-span3 ${c.parent} aod-filter-checkbox a-span-last">
<div class="a-checkbox a-checkbox-fancy aod-checkbox-col"><label><input type="checkbox" name="" value=""><i class="a-icon a-icon-checkbox"></i><span class="a-label a-checkbox-label"></span></label></div>
</div>
</span>
</div>
</div>
</div>`;
}

function swatches(): string {
  return CONDITIONS.filter((c) => c.swatch)
    .map(
      (c) => `<div id="aod-swatch-id-${c.id}" class="a-section a-spacing-none a-padding-none aod-filter-swatch aod-hide">
${toggle(c)}
<div class="a-box a-spacing-none a-box-normal a-color-base-background"><div class="a-box-inner a-padding-none">
<span tabindex="0">
<div class="a-section a-spacing-none a-padding-none aod-filter-swatch-content">
<span class="a-size-mini a-color-base aod-filter-swatch-content-text">${c.swatch}</span>
<i class="a-icon a-icon-close a-icon-small" role="img"></i>
</div>
</span>
</div></div>
</span>
</div>`,
    )
    .join('\n');
}

/** The filter bar over `others` listed offers (the pinned one not counted). */
export function filterBar(others: number): string {
  return `<div id="aod-filter" class="a-section aod-filter-block-container aod-no-select">
<div class="a-row">
<div class="a-column a-span9">
<span id="aod-filter-offer-count-string" class="a-text-bold">${others} other option${others === 1 ? '' : 's'}</span><br>
<span id="aod-sort-details-string" style="display: block;">sorted by price + delivery: low to high</span>
</div>
</div>
<span class="a-declarative" data-action="aod-filter-container-hover" data-aod-filter-container-hover="{}">
<div class="a-section a-spacing-none a-padding-none aod-filter-component-container">
<span class="a-declarative" data-action="aod-show-filter-action" data-aod-show-filter-action="{}">
<span tabindex="0">
<div class="a-section a-spacing-none a-padding-none">
<span class="a-button a-button-dropdown a-button-base aod-filter-button-div" id="a-autoid-0">
<span class="a-button-inner aod-filter-button-div">
<i id="aod-filter-show" class="a-icon a-icon-dropdown a-icon-medium" role="img" aria-label="Filter Dropdown Show"></i>
<i id="aod-filter-hide" class="a-icon a-icon-dropdown a-icon-medium" role="img" aria-label="Filter Dropdown Hide"></i>
<span id="aod-filter-string" aria-hidden="true" class="a-button-text">Filter</span>
</span>
</span>
</div>
</span>
</span>
<input type="hidden" name="" value="Filter" id="aod-filter-count-string">
<div id="aod-filter-list" class="a-section aod-filter-list-container">
<div class="a-row">
<div class="a-column a-span7">
<h1 class="a-size-base a-text-bold">Filter by</h1>
</div>
<div class="a-column a-span5 aod-clear-all-div a-span-last">
<span class="a-declarative" data-action="aod-filter-clear-all" data-aod-filter-clear-all="{}">
<a class="a-link-normal" href="#">Clear all</a>
</span>
</div>
</div>
<div class="a-row">
<div class="a-column a-span12 a-span-last">
<hr class="a-spacing-none a-spacing-top-base a-divider-normal">
</div>
</div>
<div class="a-row">
<div class="a-column a-span12 a-span-last">
<h1 class="a-size-base a-spacing-top-base a-text-bold">
Condition
</h1>
</div>
</div>
${CONDITIONS.map(checkbox).join('\n')}
</div>
</div>
</span>
<div id="aod-filter-swatch-box" class="a-section a-spacing-none a-spacing-top-base a-padding-none aod-hide">
<div id="aod-filter-swatch-container-top" class="a-section a-spacing-none a-padding-none aod-filter-swatch-container">
${swatches()}
<div id="aod-filter-swatch-box-expand-div" class="a-section a-spacing-none a-padding-none aod-filter-swatch-box-text-div aod-hide">
<span class="a-declarative" data-action="aod-filter-swatch-expand" data-aod-filter-swatch-expand="{}">
<a id="aod-filter-swatch-expand-link" class="a-size-small a-link-normal" href="#">+99</a>
<a aria-label="additional selected filters." class="a-link-normal" href="#"></a>
</span>
</div>
<div id="aod-filter-swatch-box-clear-all-div" class="a-section a-spacing-none a-padding-none aod-filter-swatch-box-text-div">
<span class="a-declarative" data-action="aod-filter-clear-all" data-aod-filter-clear-all="{}">
<a aria-label="selected filters." class="a-size-small a-link-normal" href="#">Clear all</a>
</span>
</div>
</div>
<div id="aod-filter-swatch-container-bottom" class="a-section a-spacing-none a-padding-none aod-filter-swatch-container aod-hide">
${swatches()}
</div>
</div>
</div>`;
}
