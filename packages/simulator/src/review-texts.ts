/**
 * What the generated reviews say, per language and by how happy the reviewer is: titles and
 * sentences a body is drawn from (2-4 sentences, with a paragraph break in longer ones), and
 * reviewer names. Plain text without markup-significant characters except the apostrophe, which
 * the page escapes.
 */
export type ReviewLanguage = 'en' | 'de' | 'fr' | 'it' | 'es' | 'ja';
/** Happy (4-5 stars), mixed (3), unhappy (1-2). */
export type Mood = 'good' | 'mixed' | 'bad';

interface Bank {
  titles: Record<Mood, readonly string[]>;
  sentences: Record<Mood, readonly string[]>;
  names: readonly string[];
}

const BANKS: Record<ReviewLanguage, Bank> = {
  en: {
    titles: {
      good: [
        'Does exactly what it says',
        'Great value for the money',
        'Five stars, would buy again',
        'Better than expected',
        'Solid and well made',
      ],
      mixed: ['Good, but not perfect', 'Okay for the price', 'Decent, with a few quirks', 'It works, mostly'],
      bad: ['Stopped working after two weeks', 'Not as described', 'Disappointed', 'Returned it'],
    },
    sentences: {
      good: [
        'Arrived quickly and well packaged.',
        'Setup took less than five minutes.',
        'The build quality feels premium for this price.',
        'I have used it every day for a month with no issues.',
        'My second one, bought as a gift this time.',
        'Battery life is better than advertised.',
      ],
      mixed: [
        'It does the job, but the instructions are confusing.',
        'The finish scratches more easily than I hoped.',
        'Works fine, though it is a bit louder than my old one.',
        'Shipping took longer than the estimate.',
      ],
      bad: [
        'It stopped charging after a few days.',
        'The unit I received had a cracked case.',
        'Customer service never answered my emails.',
        'Much smaller than the pictures suggest.',
      ],
    },
    names: [
      'Jennifer M.',
      'Amazon Customer',
      'David K.',
      'Sarah',
      'Mike R.',
      'Linda T.',
      'Chris P.',
      'Kindle Customer',
      'Ashley',
      'Robert J.',
    ],
  },
  de: {
    titles: {
      good: ['Macht genau, was es soll', 'Top Preis-Leistung', 'Sehr zufrieden', 'Besser als erwartet', 'Solide verarbeitet'],
      mixed: ['Gut, aber nicht perfekt', 'Für den Preis in Ordnung', 'Brauchbar mit kleinen Schwächen'],
      bad: ['Nach zwei Wochen defekt', 'Nicht wie beschrieben', 'Leider enttäuscht', 'Zurückgeschickt'],
    },
    sentences: {
      good: [
        'Die Lieferung kam schnell und gut verpackt.',
        'Die Einrichtung hat keine fünf Minuten gedauert.',
        'Die Verarbeitung wirkt für den Preis hochwertig.',
        'Ich nutze es seit einem Monat täglich ohne Probleme.',
        'Schon mein zweites, diesmal als Geschenk.',
      ],
      mixed: [
        'Erfüllt seinen Zweck, die Anleitung ist aber verwirrend.',
        'Die Oberfläche zerkratzt leichter als gedacht.',
        'Funktioniert, ist aber etwas lauter als mein altes.',
      ],
      bad: ['Nach ein paar Tagen lädt es nicht mehr.', 'Das Gehäuse war bei Ankunft gesprungen.', 'Der Kundenservice hat nie geantwortet.'],
    },
    names: ['Thomas', 'Sabine K.', 'Kunde', 'Michael S.', 'Andrea', 'Stefan W.', 'Julia M.', 'Markus'],
  },
  fr: {
    titles: {
      good: ['Fait exactement ce qui est annoncé', 'Très bon rapport qualité-prix', 'Très satisfait', 'Mieux que prévu'],
      mixed: ['Bien, mais pas parfait', 'Correct pour le prix', 'Quelques défauts'],
      bad: ['En panne après deux semaines', 'Pas conforme à la description', 'Déçu'],
    },
    sentences: {
      good: [
        'Livraison rapide et emballage soigné.',
        'Installation en moins de cinq minutes.',
        'La finition est excellente pour ce prix.',
        'Je l’utilise tous les jours depuis un mois sans souci.',
      ],
      mixed: ['Il fait le travail, mais la notice est confuse.', 'La surface se raye facilement.', 'Fonctionne bien, un peu bruyant.'],
      bad: ['Il ne charge plus après quelques jours.', 'Le boîtier était fissuré à la réception.', 'Le service client ne répond pas.'],
    },
    names: ['Nicolas', 'Client d’Amazon', 'Marie L.', 'Julien', 'Sophie D.', 'Pierre'],
  },
  it: {
    titles: {
      good: ['Fa esattamente quello che promette', 'Ottimo rapporto qualità prezzo', 'Molto soddisfatto', 'Meglio del previsto'],
      mixed: ['Buono, ma non perfetto', 'Discreto per il prezzo', 'Qualche difetto'],
      bad: ['Rotto dopo due settimane', 'Non come descritto', 'Deluso'],
    },
    sentences: {
      good: [
        'Consegna veloce e imballaggio curato.',
        'Installazione in meno di cinque minuti.',
        'La qualità costruttiva è ottima per il prezzo.',
        'Lo uso tutti i giorni da un mese senza problemi.',
      ],
      mixed: [
        'Fa il suo lavoro, ma le istruzioni sono confuse.',
        'La superficie si graffia facilmente.',
        'Funziona, ma è un po’ rumoroso.',
      ],
      bad: ['Dopo pochi giorni non si carica più.', 'Il guscio era crepato all’arrivo.', 'Il servizio clienti non risponde.'],
    },
    names: ['Marco', 'Cliente Amazon', 'Giulia R.', 'Luca', 'Francesca B.', 'Alessandro'],
  },
  es: {
    titles: {
      good: ['Hace justo lo que promete', 'Muy buena relación calidad-precio', 'Muy contento', 'Mejor de lo esperado'],
      mixed: ['Bien, pero no perfecto', 'Correcto por el precio', 'Algunos fallos'],
      bad: ['Dejó de funcionar a las dos semanas', 'No es como se describe', 'Decepcionado'],
    },
    sentences: {
      good: [
        'Llegó rápido y bien embalado.',
        'La instalación lleva menos de cinco minutos.',
        'Los acabados son muy buenos para el precio.',
        'Lo uso a diario desde hace un mes sin problemas.',
      ],
      mixed: [
        'Cumple, pero las instrucciones son confusas.',
        'La superficie se raya con facilidad.',
        'Funciona bien, aunque hace algo de ruido.',
      ],
      bad: ['A los pocos días dejó de cargar.', 'La carcasa llegó rota.', 'El servicio de atención no contesta.'],
    },
    names: ['Javier', 'Cliente de Amazon', 'Lucía G.', 'Carlos', 'María P.', 'Alberto'],
  },
  ja: {
    titles: {
      good: ['説明通りの商品です', 'コスパ最高', '大満足です', '期待以上でした'],
      mixed: ['悪くはないが完璧ではない', '値段なりです', '少し気になる点あり'],
      bad: ['二週間で壊れました', '説明と違います', '残念でした'],
    },
    sentences: {
      good: [
        'すぐに届き、梱包も丁寧でした。',
        '設定は五分もかかりませんでした。',
        'この価格にしては作りがしっかりしています。',
        '一か月毎日使っていますが問題ありません。',
      ],
      mixed: ['使えますが、説明書が分かりにくいです。', '表面に傷がつきやすいです。', '動作は問題ないですが、少し音が大きいです。'],
      bad: ['数日で充電できなくなりました。', '届いた時点でケースが割れていました。', 'サポートから返事がありません。'],
    },
    names: ['Amazon カスタマー', 'たかし', 'ゆき', 'ケン', 'さくら', 'ひろ'],
  },
};

export function moodOf(stars: number): Mood {
  return stars >= 4 ? 'good' : stars === 3 ? 'mixed' : 'bad';
}

type Random = () => number;
const pickOf = <T>(list: readonly T[], random: Random): T => list[Math.floor(random() * list.length)]!;

/** A review's title, body paragraphs and author in `language` for a review of `stars` stars. */
export function reviewText(language: ReviewLanguage, stars: number, random: Random): { title: string; body: string[]; author: string } {
  const bank = BANKS[language];
  const mood = moodOf(stars);
  const pool = [...bank.sentences[mood], ...(mood === 'good' ? [] : bank.sentences.good.slice(0, 1))];
  const count = 2 + Math.floor(random() * 3);
  const chosen: string[] = [];
  for (let i = 0; i < count && pool.length; i++) chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  const joiner = language === 'ja' ? '' : ' ';
  const body = chosen.length > 2 ? [chosen.slice(0, 2).join(joiner), chosen.slice(2).join(joiner)] : [chosen.join(joiner)];
  return { title: pickOf(bank.titles[mood], random), body, author: pickOf(bank.names, random) };
}
