/**
 * The product-details labels of each fact in the marketplaces' languages (US/UK/CA/AU/IN/SG, DE,
 * FR/BE, ES/MX, IT, BR/PT, NL, SE, PL, TR, JP, AE/SA/EG). A label matches as a whole (folded by
 * labelKey), never as a substring: "Descatalogado por el fabricante" is not the manufacturer and
 * "Battery Weight" is not the item's weight.
 *
 * Each fact lists tiers, best first; a row of an earlier tier wins over any row of a later one.
 */
import { labelKey } from './product-tables';
import type { DateLanguage } from './review-date';

export type LabelTest = (key: string) => boolean;

function oneOf(labels: readonly string[], patterns: readonly RegExp[] = []): LabelTest {
  const keys = new Set(labels.map(labelKey));
  return (key) => keys.has(key) || patterns.some((p) => p.test(key));
}

/**
 * "Item Dimensions L x W x H", "Artikelabmessungen L x B x H", "Dimensions du produit (L x l x h)",
 * "Dimensiones del artículo Largo x Ancho x Alto", "Item Dimensions LxWxH": the axis legend after the label.
 */
const AXES_RE = /\s+\(?\s*\p{L}{1,10}\.?(?:\s*[x×]\s*\p{L}{1,10}\.?){1,3}\s*\)?$/u;

function withAxes(test: LabelTest): LabelTest {
  return (key) => {
    const bare = key.replace(AXES_RE, '');
    return bare !== key && test(bare);
  };
}

export const MANUFACTURER_LABELS: LabelTest[] = [
  oneOf([
    'Manufacturer',
    'Hersteller',
    'Fabricant',
    'Fabricante',
    'Produttore',
    'Fabrikant',
    'Tillverkare',
    'Producent',
    'Üretici',
    'メーカー',
    'メーカー名',
    '製造元',
    'الشركة المصنعة',
    'الشركة المصنّعة',
    'المصنع',
  ]),
];

/** Model number, then the manufacturer's part number, then the model name (the field's documented fallbacks). */
export const MODEL_LABELS: LabelTest[] = [
  oneOf(
    [
      'Item model number',
      'Model number',
      'Model No.',
      'Modellnummer',
      "Numéro du modèle de l'article",
      'Numéro du modèle',
      'Numéro de modèle',
      'Número de modelo del producto',
      'Número de modelo',
      'Numero modello articolo',
      'Numero modello',
      'Numero di modello',
      'Número do modelo',
      'Número do modelo do item',
      'Modelnummer artikel',
      'Modelnummer',
      'Numer modelu produktu',
      'Numer modelu',
      'Ürün model numarası',
      'Model numarası',
      '型番',
      '商品モデル番号',
      'メーカー型番',
      'رقم موديل السلعة',
      'رقم الموديل',
      'رقم طراز السلعة',
    ],
    [
      // Spanish and Portuguese in every order Amazon writes them: "Número de modelo del producto",
      // "Número del modelo", "N.º de modelo", "Número de modelo do item".
      /^(?:numero|n\.?[ºo°]?\.?|num\.?) (?:de |del |do |da )?modelo(?: (?:del|de|do|da) (?:producto|articulo|item|produto))?$/,
    ],
  ),
  oneOf([
    'Part Number',
    'Mfr Part Number',
    'Manufacturer Part Number',
    'Item part number',
    'Manufacturer reference',
    'Artikelnummer',
    'Herstellerreferenz',
    'Teilenummer',
    'Référence fabricant',
    'Référence du fabricant',
    'Numéro de pièce',
    'Número de pieza',
    'Referencia del fabricante',
    'Número de parte',
    'Codice produttore',
    'Riferimento produttore',
    'Numero parte',
    'Número da peça',
    'Referência do fabricante',
    'Onderdeelnummer',
    'Numer części',
    'Parça numarası',
    '製造元リファレンス',
    '部品番号',
    'رقم القطعة',
  ]),
  oneOf([
    'Model name',
    'Model',
    'Modellname',
    'Modell',
    'Nom du modèle',
    'Modèle',
    'Nombre del modelo',
    'Modelo',
    'Nome del modello',
    'Modello',
    'Nome do modelo',
    'Modelnaam',
    'Modellnamn',
    'Nazwa modelu',
    'Model adı',
    'モデル名',
    'اسم الموديل',
  ]),
];

const ITEM_WEIGHT = oneOf(
  [
    'Item Weight',
    'Product weight',
    'Weight',
    'Artikelgewicht',
    'Produktgewicht',
    'Gewicht',
    "Poids de l'article",
    'Poids du produit',
    'Poids',
    'Peso del producto',
    'Peso del artículo',
    'Peso',
    'Peso articolo',
    'Peso del prodotto',
    "Peso dell'articolo",
    'Peso do produto',
    'Peso do item',
    'Productgewicht',
    'Artikelvikt',
    'Artikelns vikt',
    'Produktvikt',
    'Vikt',
    'Waga produktu',
    'Waga przedmiotu',
    'Waga',
    'Ürün ağırlığı',
    'Ağırlık',
    '商品の重量',
    '商品重量',
    '本体重量',
    '重量',
    'وزن السلعة',
    'وزن المنتج',
    'الوزن',
  ],
  [
    // "Peso del producto", "Peso del artículo", "Peso de producto", "Peso do item", with or without a unit legend ("Peso (kg)").
    /^peso(?: (?:del|de|do|da|dell'|della) ?(?:producto|articulo|item|produto|articolo|prodotto))?(?: \([^()]*\))?$/,
    /^(?:item|product) weight \([^()]*\)$/,
    /^(?:artikel|produkt)?gewicht \([^()]*\)$/,
  ],
);

const SHIPPING_WEIGHT = oneOf([
  'Shipping Weight',
  'Package Weight',
  'Item Package Weight',
  'Boxed-product Weight',
  'Parcel Weight',
  'Versandgewicht',
  'Verpackungsgewicht',
  'Paketgewicht',
  'Produktgewicht inkl. Verpackung',
  "Poids d'expédition",
  'Poids du colis',
  "Poids de l'emballage",
  'Peso del envío',
  'Peso del paquete',
  'Peso di spedizione',
  'Peso del pacco',
  'Peso de envio',
  'Peso da embalagem',
  'Peso do pacote',
  'Verzendgewicht',
  'Verpakkingsgewicht',
  'Fraktvikt',
  'Förpackningens vikt',
  'Waga przesyłki',
  'Waga opakowania',
  'Gönderi ağırlığı',
  'Paket ağırlığı',
  'Kargo ağırlığı',
  '発送重量',
  '梱包重量',
  'وزن الشحن',
  'وزن الشحنة',
  'وزن العبوة',
]);

/**
 * The item's own weight wins over the shipping or package weight (which adds the box); a page
 * that states only the shipping weight still states a weight, so it is the fallback.
 */
export const WEIGHT_LABELS = { item: ITEM_WEIGHT, shipping: SHIPPING_WEIGHT };

const PRODUCT_DIMENSIONS = oneOf([
  'Product Dimensions',
  'Item Dimensions',
  'Dimensions',
  'Produktabmessungen',
  'Artikelabmessungen',
  'Abmessungen',
  'Maße',
  'Artikelmaße',
  'Produktmaße',
  'Größe und/oder Gewicht',
  'Dimensions du produit',
  "Dimensions de l'article",
  'Dimensiones del producto',
  'Dimensiones del artículo',
  'Dimensiones',
  'Dimensioni prodotto',
  'Dimensioni del prodotto',
  "Dimensioni dell'articolo",
  'Dimensioni articolo',
  'Dimensioni',
  'Dimensões do produto',
  'Dimensões do item',
  'Dimensões',
  'Productafmetingen',
  'Afmetingen product',
  'Afmetingen',
  'Produktens mått',
  'Produktmått',
  'Artikelns mått',
  'Mått',
  'Wymiary produktu',
  'Wymiary',
  'Ürün boyutları',
  'Boyutlar',
  '商品の寸法',
  '商品寸法',
  '製品サイズ',
  '本体サイズ',
  'أبعاد المنتج',
  'أبعاد السلعة',
  'الأبعاد',
]);

const PACKAGE_DIMENSIONS = oneOf([
  'Package Dimensions',
  'Item Package Dimensions',
  'Parcel Dimensions',
  'Packaging Dimensions',
  'Verpackungsabmessungen',
  'Paketabmessungen',
  'Verpackungsmaße',
  'Paketmaße',
  'Dimensions du colis',
  "Dimensions de l'emballage",
  'Dimensiones del paquete',
  'Dimensiones del embalaje',
  'Dimensioni del collo',
  'Dimensioni del pacco',
  "Dimensioni dell'imballaggio",
  'Dimensões da embalagem',
  'Dimensões do pacote',
  'Afmetingen verpakking',
  'Verpakkingsafmetingen',
  'Pakketafmetingen',
  'Förpackningens mått',
  'Paketets mått',
  'Wymiary opakowania',
  'Wymiary paczki',
  'Paket boyutları',
  '梱包サイズ',
  '商品パッケージの寸法',
  'パッケージサイズ',
  'أبعاد العبوة',
  'أبعاد الشحنة',
  'أبعاد الطرد',
]);

/**
 * The product's own dimensions win over the package's (the box is bigger than the product). Among
 * the product's, the plain row ("Item Dimensions: 5.91 x 2.83 x 1.09 inches") wins over the row
 * with an axis legend ("Item Dimensions L x W x Thickness: 5.91"L x 2.83"W x 1.09"Th").
 */
export const DIMENSIONS_LABELS = {
  product: [PRODUCT_DIMENSIONS, withAxes(PRODUCT_DIMENSIONS)],
  package: [PACKAGE_DIMENSIONS, withAxes(PACKAGE_DIMENSIONS)],
};

const AMAZON_DOMAIN = String.raw`amazon(?:\.[a-z]{2,3}){1,2}`;

/**
 * "Date First Available" in each language, with the language it is written in: the label's
 * language, not the marketplace's, decides how its date reads (a Portuguese page on amazon.es
 * writes "27 set. 2020"; docs/parsing.md).
 */
const FIRST_AVAILABLE: [DateLanguage, string[], RegExp[]][] = [
  [
    'en',
    ['Date First Available', 'Date first listed on Amazon'],
    [new RegExp(`^date first (?:available|listed)(?: (?:at|on) ${AMAZON_DOMAIN})?$`)],
  ],
  ['de', [], [new RegExp(`^im angebot (?:von|auf|bei) ${AMAZON_DOMAIN} seit$`)]],
  [
    'fr',
    ['Date de première disponibilité'],
    [new RegExp(`^date de mise en ligne sur ${AMAZON_DOMAIN}$`), new RegExp(`^disponible sur ${AMAZON_DOMAIN} depuis$`)],
  ],
  [
    'es',
    ['Fecha de disponibilidad', 'Fecha de primera disponibilidad'],
    [new RegExp(`^producto en ${AMAZON_DOMAIN} desde$`), new RegExp(`^fecha de disponibilidad en ${AMAZON_DOMAIN}$`), /^disponible desde$/],
  ],
  ['it', ['Data di prima disponibilità'], [new RegExp(`^disponibile su ${AMAZON_DOMAIN} a partire dal$`)]],
  [
    'pt',
    [
      'Disponível para compra desde',
      'Data de disponibilidade',
      'Disponível desde',
      'Data da primeira disponibilidade',
      'Data de primeira disponibilidade',
    ],
    [
      new RegExp(`^disponivel para compra (?:no site da |na |no )?${AMAZON_DOMAIN} desde$`),
      new RegExp(`^disponivel (?:na|no|em) ${AMAZON_DOMAIN} desde$`),
      new RegExp(`^data de disponibilidade (?:na|no|em) ${AMAZON_DOMAIN}$`),
    ],
  ],
  ['nl', ['Datum eerste beschikbaarheid'], [new RegExp(`^datum eerste beschikbaarheid op ${AMAZON_DOMAIN}$`)]],
  ['sv', ['Första tillgängliga datum', 'Datum för första tillgänglighet'], []],
  ['pl', ['Data pierwszej dostępności'], []],
  ['tr', ['Satışa Sunulduğu İlk Tarih'], []],
];
/** Labels whose dates need no language (Japanese and Arabic dates are numeric or have unique month names). */
const FIRST_AVAILABLE_ANY = ['Amazon.co.jp での取り扱い開始日', 'Amazon.co.jpでの取り扱い開始日', 'تاريخ توفر أول منتج', 'تاريخ أول توفر'];

const FIRST_AVAILABLE_TESTS: [DateLanguage | undefined, LabelTest][] = [
  ...FIRST_AVAILABLE.map(([lang, labels, patterns]): [DateLanguage, LabelTest] => [lang, oneOf(labels, patterns)]),
  [undefined, oneOf(FIRST_AVAILABLE_ANY)],
];

export const FIRST_AVAILABLE_LABELS: LabelTest[] = [(key) => FIRST_AVAILABLE_TESTS.some(([, test]) => test(key))];

/** The language a first-available label is written in (undefined for one whose dates need none). */
export function firstAvailableLanguage(key: string): DateLanguage | undefined {
  return FIRST_AVAILABLE_TESTS.find(([, test]) => test(key))?.[0];
}

export const ISBN13_LABELS: LabelTest[] = [oneOf(['ISBN-13', 'ISBN 13', 'ISBN13']), oneOf(['ISBN'])];
