import { mentionsPastMonthSales, parseBoughtPastMonth, parseNewOffersCount, readNewOffersLine } from './sales-counts';

describe('parseBoughtPastMonth', () => {
  it.each([
    ['10K+ bought in past month', 10_000],
    ['50+ bought in past month', 50],
    ['100K+ bought in past month', 100_000],
    ['1.5K+ bought in past month', 1_500],
    ['100+ comprados el mes pasado', 100],
    ['4 mil+ comprados el mes pasado', 4_000],
    ['1,5 mil+ comprados el mes pasado', 1_500],
    ['1 mil+ compras no mês passado', 1_000],
    ['10.000+ acquistati nel mese scorso', 10_000],
    ['Oltre 1000 acquisti nel mese scorso', 1_000],
    ['Mehr als 1.000 Mal im letzten Monat gekauft', 1_000],
    ['5000+ Mal im letzten Monat gekauft', 5_000],
    ['8000+ gekauft Mal im letzten Monat', 8_000],
    ['Plus de 1 k achetés au cours du mois dernier', 1_000],
    ['Plus de 50 achetés au cours du mois dernier', 50],
    ['300+ achetés au cours du mois dernier', 300],
    ['過去1か月で1000点以上購入されました', 1_000],
    ['過去1か月で1万点以上購入されました', 10_000],
    ['先月は500点以上購入', 500],
    ['Meer dan 1000 keer gekocht in de afgelopen maand', 1_000],
    ['Ponad 1 tys. kupionych w zeszłym miesiącu', 1_000],
    ['1 tn+ köpta förra månaden', 1_000],
    ['Geçen ay 1B+ adetten fazla satın alındı', 1_000],
    // The figure split over two spans (details pages: <b>100+ comprados</b><span> el mes pasado</span>).
    ['100+\u00a0comprados el mes pasado', 100],
  ])('%s -> %d', (text, expected) => {
    expect(parseBoughtPastMonth(text)).toBe(expected);
  });

  it.each([
    ['10K+ bought in past week'],
    ['4.5 out of 5 stars'],
    ['Bought together'],
    ['Visited 200 times last month'],
    ['bought in past month'],
    [''],
  ])('%s is not a past-month sales figure', (text) => {
    expect(parseBoughtPastMonth(text)).toBeNull();
  });

  it('the cheap pre-check accepts the wording of either half', () => {
    expect(mentionsPastMonthSales('100+ comprados')).toBe(true);
    expect(mentionsPastMonthSales(' el mes pasado')).toBe(true);
    expect(mentionsPastMonthSales('FREE delivery Tue, Aug 18')).toBe(false);
  });
});

describe('parseNewOffersCount', () => {
  it.each([
    ['New (12) from $9.99', 12],
    ['New (1) from $29.99 FREE Shipping', 1],
    ['1 New from $29.99', 1],
    ['Neu (3) ab EUR 12,99', 3],
    ['3 neu ab EUR 12,99', 3],
    ['Neuf (5) à partir de EUR 9,99', 5],
    ['14 neufs à partir de EUR 9,99', 14],
    ['Nuevo (7) desde 52,01€', 7],
    ['7 nuevos desde 52,01 €', 7],
    ['Novo (2) a partir de R$ 19,00', 2],
    ['20 Novo a partir de R$ 19,00', 20],
    ['Nuovo (4) da 10,00 €', 4],
    ['新品の出品：3￥1,980より', 3],
    ['新品 (3) ￥1,980より', 3],
    ['新品 (3点) ￥1,980より', 3],
    ['新品の出品：3点 ￥1,980より', 3],
    ['Nieuw (3) vanaf € 12,99', 3],
    ['Nowy (3) od 49,99 zł', 3],
    ['Yeni (3) 129,99 TL', 3],
    ['جديد (3) من 49.00 درهم', 3],
  ])('%s -> %d', (text, expected) => {
    expect(parseNewOffersCount(text)).toBe(expected);
  });

  it.each([
    ['New & Used (14) from £4.45'],
    ['Used & New (7) from $5.00'],
    ['Neu und gebraucht (7) ab EUR 5,00'],
    ["16 neufs & d'occasion à partir de EUR 6,49"],
    ['Nueva & De segunda mano (23) desde 52,01€'],
    ['Novos e usados (5) a partir de R$ 10,00'],
    ['新品＆中古品の出品：8'],
    ["2 d'occasion à partir de EUR 6,49"],
    ['Used (3) from $4.00'],
    ['Other Sellers on Amazon'],
    ['See All Buying Options'],
  ])('%s is not a count of new offers', (text) => {
    expect(parseNewOffersCount(text)).toBeNull();
  });
});

describe('readNewOffersLine', () => {
  it.each([
    ['New (12) from $9.99', 12, 'New   from $9.99'],
    ['14 neufs à partir de EUR 9,99', 14, ' neufs à partir de EUR 9,99'],
    ['New from $15.00', null, 'New from $15.00'],
  ])('%s: the count, and the rest where the price is', (text, count, rest) => {
    expect(readNewOffersLine(text)).toEqual({ count, rest });
  });
});
