/** Ad labels of search cards in every marketplace language, shared by the card extractors. */

export const SPONSORED_WORDS =
  'sponsored|sponsored ad|gesponsert|sponsorisé|sponsorisée|patrocinado|patrocinada|sponsorizzato|gesponsord|sponsrad|sponsorowane|sponsorlu|スポンサー|広告|ممول|إعلان|مُموَّل';
const SPONSORED_LABEL_RE = new RegExp(`^\\[?(?:${SPONSORED_WORDS})\\]?$`, 'i');

/** A card's ad label on its own ("Sponsored", "[Gesponsert]"). */
export const isSponsoredLabel = (text: string): boolean => SPONSORED_LABEL_RE.test(text);
