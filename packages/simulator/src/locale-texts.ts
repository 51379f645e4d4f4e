/**
 * The page texts of the built-in pages in each language they exist in (locale.ts picks one per
 * marketplace): the stock lines, star and count phrases, review date lines, pagination labels
 * and offer rows the parsers read, as Amazon words them.
 */
export interface PageTexts {
  inStock: string;
  onlyLeft(n: number): string;
  unavailable: string;
  /** "4.5 out of 5 stars"; `rating` already formatted. */
  outOf5(rating: string): string;
  ratings(count: string): string;
  /** The review date line: "Reviewed in the United States on January 6, 2024". */
  reviewedIn(country: string, date: string): string;
  verified: string;
  helpful(n: number, count: string): string;
  nextPage: string;
  previousPage: string;
  bestSellersIn(category: string): string;
  freeShipping: string;
  /** "+ $5.49 shipping" */
  shippingCharge(price: string): string;
  arrives: string;
  shipsFrom: string;
  soldBy: string;
  conditionNew: string;
  usedGrades: readonly string[];
  customerReviews: string;
  color: string;
  /** A histogram row's label: "5 star", "5 Sterne", "星5つ". */
  starRow(n: number): string;
  /** The deliver-to block's words (delivery-location.ts): 2025 layout's line 1 before the place, its update link, and the older layout's line 1. */
  deliveringTo: string;
  updateLocation: string;
  deliverTo: string;
  /** Review texts in this language (review-texts.ts). */
  language: 'en' | 'de' | 'fr' | 'it' | 'es' | 'ja';
}

export const EN: PageTexts = {
  inStock: 'In Stock',
  onlyLeft: (n) => `Only ${n} left in stock - order soon.`,
  unavailable: 'Currently unavailable.',
  outOf5: (r) => `${r} out of 5 stars`,
  ratings: (c) => `${c} ratings`,
  reviewedIn: (country, date) => `Reviewed in ${country} on ${date}`,
  verified: 'Verified Purchase',
  helpful: (n, c) => (n === 1 ? 'One person found this helpful' : `${c} people found this helpful`),
  nextPage: 'Next page',
  previousPage: 'Previous page',
  bestSellersIn: (c) => `Best Sellers in ${c}`,
  freeShipping: 'FREE Shipping',
  shippingCharge: (p) => `+ ${p} shipping`,
  arrives: 'Arrives:',
  shipsFrom: 'Ships from',
  soldBy: 'Sold by',
  conditionNew: 'New',
  usedGrades: ['Used - Like New', 'Used - Very Good', 'Used - Good', 'Used - Acceptable'],
  customerReviews: 'Customer reviews',
  color: 'Color',
  starRow: (n) => `${n} star`,
  deliveringTo: 'Delivering to',
  updateLocation: 'Update location',
  deliverTo: 'Deliver to',
  language: 'en',
};

export const DE: PageTexts = {
  inStock: 'Auf Lager',
  onlyLeft: (n) => `Nur noch ${n} auf Lager`,
  unavailable: 'Derzeit nicht verfügbar.',
  outOf5: (r) => `${r} von 5 Sternen`,
  ratings: (c) => `${c} Sternebewertungen`,
  reviewedIn: (country, date) => `Rezension aus ${country} vom ${date}`,
  verified: 'Verifizierter Kauf',
  helpful: (n, c) => (n === 1 ? 'Eine Person fand diese Informationen hilfreich' : `${c} Personen fanden diese Informationen hilfreich`),
  nextPage: 'Nächste Seite',
  previousPage: 'Vorherige Seite',
  bestSellersIn: (c) => `Bestseller in ${c}`,
  freeShipping: 'KOSTENLOSE Lieferung',
  shippingCharge: (p) => `+ ${p} Versand`,
  arrives: 'Lieferung:',
  shipsFrom: 'Versand',
  soldBy: 'Verkäufer',
  conditionNew: 'Neu',
  usedGrades: ['Gebraucht - Wie neu', 'Gebraucht - Sehr gut', 'Gebraucht - Gut', 'Gebraucht - Akzeptabel'],
  customerReviews: 'Kundenrezensionen',
  color: 'Farbe',
  starRow: (n) => `${n} Sterne`,
  deliveringTo: 'Liefern an',
  updateLocation: 'Standort aktualisieren',
  deliverTo: 'Liefern nach',
  language: 'de',
};

export const FR: PageTexts = {
  inStock: 'En stock',
  onlyLeft: (n) => `Il ne reste plus que ${n} exemplaire(s) en stock.`,
  unavailable: 'Actuellement indisponible.',
  outOf5: (r) => `${r} sur 5 étoiles`,
  ratings: (c) => `${c} évaluations`,
  reviewedIn: (country, date) => `Commenté en ${country} le ${date}`,
  verified: 'Achat vérifié',
  helpful: (n, c) => (n === 1 ? 'Une personne a trouvé cela utile' : `${c} personnes ont trouvé cela utile`),
  nextPage: 'Page suivante',
  previousPage: 'Page précédente',
  bestSellersIn: (c) => `Meilleures ventes en ${c}`,
  freeShipping: 'Livraison GRATUITE',
  shippingCharge: (p) => `+ ${p} de livraison`,
  arrives: 'Livraison :',
  shipsFrom: 'Expédié par',
  soldBy: 'Vendu par',
  conditionNew: 'Neuf',
  usedGrades: ["D'occasion - Comme neuf", "D'occasion - Très bon", "D'occasion - Bon", "D'occasion - Acceptable"],
  customerReviews: 'Commentaires client',
  color: 'Couleur',
  starRow: (n) => `${n} étoiles`,
  deliveringTo: 'Livraison à',
  updateLocation: 'Mettre à jour l’emplacement',
  deliverTo: 'Livrer à',
  language: 'fr',
};

export const IT: PageTexts = {
  inStock: 'Disponibilità immediata',
  onlyLeft: (n) => `Solo ${n} -- ordina subito (ulteriori in arrivo).`,
  unavailable: 'Attualmente non disponibile.',
  outOf5: (r) => `${r} su 5 stelle`,
  ratings: (c) => `${c} voti`,
  reviewedIn: (country, date) => `Recensito in ${country} il ${date}`,
  verified: 'Acquisto verificato',
  helpful: (n, c) => (n === 1 ? "Una persona l'ha trovato utile" : `${c} persone l'hanno trovato utile`),
  nextPage: 'Pagina successiva',
  previousPage: 'Pagina precedente',
  bestSellersIn: (c) => `Bestseller in ${c}`,
  freeShipping: 'Spedizione GRATUITA',
  shippingCharge: (p) => `+ ${p} di spedizione`,
  arrives: 'Consegna:',
  shipsFrom: 'Spedito da',
  soldBy: 'Venduto da',
  conditionNew: 'Nuovo',
  usedGrades: ['Usato - Come nuovo', 'Usato - Ottime condizioni', 'Usato - Buone condizioni', 'Usato - Accettabile'],
  customerReviews: 'Recensioni clienti',
  color: 'Colore',
  starRow: (n) => `${n} stelle`,
  deliveringTo: 'Consegna a',
  updateLocation: 'Aggiorna posizione',
  deliverTo: 'Consegna in',
  language: 'it',
};

export const ES: PageTexts = {
  inStock: 'En stock',
  onlyLeft: (n) => `Solo queda(n) ${n} en stock.`,
  unavailable: 'No disponible.',
  outOf5: (r) => `${r} de 5 estrellas`,
  ratings: (c) => `${c} valoraciones`,
  reviewedIn: (country, date) => `Calificado en ${country} el ${date}`,
  verified: 'Compra verificada',
  helpful: (n, c) => (n === 1 ? 'A una persona le ha parecido esto útil' : `A ${c} personas les ha parecido esto útil`),
  nextPage: 'Página siguiente',
  previousPage: 'Página anterior',
  bestSellersIn: (c) => `Los más vendidos en ${c}`,
  freeShipping: 'Envío GRATIS',
  shippingCharge: (p) => `+ ${p} de envío`,
  arrives: 'Entrega:',
  shipsFrom: 'Enviado desde',
  soldBy: 'Vendido por',
  conditionNew: 'Nuevo',
  usedGrades: ['De 2ª mano - Como nuevo', 'De 2ª mano - Muy bueno', 'De 2ª mano - Bueno', 'De 2ª mano - Aceptable'],
  customerReviews: 'Opiniones de clientes',
  color: 'Color',
  starRow: (n) => `${n} estrellas`,
  deliveringTo: 'Entrega en',
  updateLocation: 'Actualizar ubicación',
  deliverTo: 'Enviar a',
  language: 'es',
};

export const JA: PageTexts = {
  inStock: '在庫あり。',
  onlyLeft: (n) => `残り${n}点 ご注文はお早めに`,
  unavailable: '現在お取り扱いできません。',
  outOf5: (r) => `5つ星のうち${r}`,
  ratings: (c) => `${c}個の評価`,
  reviewedIn: (country, date) => `${date}に${country}でレビュー済み`,
  verified: 'Amazonで購入',
  helpful: (_n, c) => `${c}人のお客様がこれが役に立ったと考えています`,
  nextPage: '次へ',
  previousPage: '前へ',
  bestSellersIn: (c) => `売れ筋ランキング: ${c}`,
  freeShipping: '配送料無料',
  shippingCharge: (p) => `+ ${p} 配送料`,
  arrives: 'お届け日:',
  shipsFrom: '出荷元',
  soldBy: '販売元',
  conditionNew: '新品',
  usedGrades: ['中古品 - ほぼ新品', '中古品 - 非常に良い', '中古品 - 良い', '中古品 - 可'],
  customerReviews: 'カスタマーレビュー',
  color: '色',
  starRow: (n) => `星${n}つ`,
  deliveringTo: 'お届け先',
  updateLocation: '住所を更新',
  deliverTo: '配送先',
  language: 'ja',
};
