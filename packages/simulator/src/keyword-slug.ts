/**
 * Keyword <-> file-name slug matching. Saved search pages are named by a slug of their keyword
 * (`search-DE-plastikfrei-fuer-einsteiger.html`), while workers send the raw keyword
 * ("plastikfrei für einsteiger"). German slugs transliterate umlauts (ü -> ue) but other
 * sources just strip the accent (ü -> u), so a keyword yields both spellings and a file
 * matches when either one equals either spelling of its own slug.
 */

const GERMAN: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', ẞ: 'ss' };

function slugify(text: string): string {
  return (
    text
      .normalize('NFKD')
      // Accents on Latin letters only (é -> e): Japanese voicing marks (バ) are part of the letter.
      .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
      .normalize('NFC')
      .replace(/[^\p{L}\p{N}]+/gu, '-') // spaces and punctuation: "usb c" / "usb-c" -> "usb-c"
      .replace(/^-+|-+$/g, '')
  );
}

/**
 * The spellings a keyword (or a file-name slug) may be saved under: umlauts transliterated
 * first, then plain diacritic stripping. Deduplicated; the transliterated one comes first.
 */
export function keywordSlugs(keyword: string): string[] {
  // NFC first: a decomposed "u + combining diaeresis" must still transliterate to "ue".
  const lower = keyword.normalize('NFC').toLowerCase();
  const german = slugify(lower.replace(/[äöüßẞ]/g, (c) => GERMAN[c] ?? c));
  const plain = slugify(lower);
  return german === plain ? [german] : [german, plain];
}
