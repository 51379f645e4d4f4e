/** Ad labels of search cards in every marketplace language, shared by the card extractors. */

export const SPONSORED_WORDS =
  'sponsored|sponsored ad|gesponsert|sponsorisé|sponsorisée|patrocinado|patrocinada|sponsorizzato|gesponsord|sponsrad|sponsorowane|sponsorlu|スポンサー|広告|ممول|إعلان|مُموَّل';
const SPONSORED_LABEL_RE = new RegExp(`^\\[?(?:${SPONSORED_WORDS})\\]?$`, 'i');

/** A card's ad label on its own ("Sponsored", "[Gesponsert]"). */
export const isSponsoredLabel = (text: string): boolean => SPONSORED_LABEL_RE.test(text);

/**
 * The formats of books, music and video as their cards' format links name them, in the
 * marketplaces' languages ("Paperback", "Taschenbuch", "Broché", "Tapa blanda", "Copertina
 * flessibile", "Capa comum", "Häftad", "Miękka oprawa", "Ciltsiz", "単行本", "Kindle版",
 * "غلاف ورقي"), matched as the link's whole text (a product's "Kindle Paperwhite Case" is none).
 */
const MEDIA_FORMATS = [
  'kindle',
  'kindle edition',
  'kindle ausgabe',
  'kindle-ausgabe',
  'format kindle',
  'version kindle',
  'versión kindle',
  'formato kindle',
  'ebook kindle',
  'kindle-editie',
  'kindle-utgåva',
  'wersja kindle',
  'kindle edisyonu',
  'kindle版',
  'paperback',
  'hardcover',
  'hardback',
  'mass market paperback',
  'board book',
  'spiral-bound',
  'library binding',
  'audible audiobook',
  'audiobook',
  'audio cd',
  'mp3 cd',
  'vinyl',
  'dvd',
  'blu-ray',
  'prime video',
  'comics',
  'taschenbuch',
  'gebundene ausgabe',
  'broschiert',
  'audio-cd',
  'hörbuch',
  'hörbuch-download',
  'audible hörbuch',
  'broché',
  'relié',
  'poche',
  'livre audio audible',
  'tapa blanda',
  'tapa dura',
  'libro de bolsillo',
  'audiolibro audible',
  'copertina flessibile',
  'copertina rigida',
  'tascabile',
  'capa comum',
  'capa dura',
  'livro de bolso',
  'audiolivro audible',
  'gebonden',
  'gebonden boek',
  'häftad',
  'inbunden',
  'pocket',
  'ljudbok',
  'miękka oprawa',
  'twarda oprawa',
  'ciltsiz',
  'ciltli',
  'sesli kitap',
  '単行本',
  '単行本（ソフトカバー）',
  '文庫',
  '新書',
  'ペーパーバック',
  'ハードカバー',
  'コミック',
  '大型本',
  'ムック',
  'オーディオブック',
  'audible版',
  'غلاف ورقي',
  'غلاف مقوى',
  'نسخة كيندل',
  'كتاب مسموع',
];
const MEDIA_FORMAT_SET = new Set(MEDIA_FORMATS);

/** A format link's text is one format, perhaps with a note in parentheses ("Kindle版 (電子書籍)", "Paperback – Illustrated"). */
export function isMediaFormat(text: string): boolean {
  const bare = text
    .toLowerCase()
    .replace(/\s*[(（][^)）]*[)）]\s*$/u, '')
    .replace(/\s+[–—-]\s+.*$/u, '')
    .replace(/\s+/g, ' ')
    .trim();
  return MEDIA_FORMAT_SET.has(bare);
}

/**
 * A contributor's role as book cards write it after the name: "(Author)", "(Autor)", "(Auteur)",
 * "(Autore)", "(Författare)", "(Yazar)", "(著)", "(翻訳)", "(المؤلف)", alone or several in one
 * pair of parentheses ("(Author, Illustrator)").
 */
const ROLE_WORDS =
  'author|illustrator|narrator|editor|translator|contributor|foreword|introduction|photographer|autor|autorin|herausgeber|übersetzer|sprecher|illustration|auteur|illustrateur|traduction|traducteur|narrateur|préface|ilustrador|traductor|narrador|prólogo|autore|illustratore|traduttore|curatore|narratore|tradutor|vertaler|schrijver|författare|illustratör|översättare|uppläsare|ilustrator|tłumacz|lektor|yazar|çevirmen|editör|著|著者|翻訳|訳|イラスト|編集|監修|原著|写真|作|絵|原作|その他|المؤلف|مؤلف|مترجم|رسوم';
export const CONTRIBUTOR_ROLE_RE = new RegExp(`[(（]\\s*(?:${ROLE_WORDS})(?:\\s*[,、/]\\s*(?:${ROLE_WORDS}))*\\s*[)）]`, 'iu');
