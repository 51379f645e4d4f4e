import { couponValueOf, deliveryPromiseOf, shippingCharge, stockQuantityOf, unitPriceOf } from './landed-cost';

const FETCHED = new Date('2026-12-02T10:00:00Z');

describe('shippingCharge', () => {
  it.each([
    ['FREE delivery Tuesday, December 9', 'US', { amount: 0, currency: 'USD' }],
    ['$5.99 delivery December 9 - 12', 'US', { amount: 5.99, currency: 'USD' }],
    ['KOSTENLOSE Lieferung Dienstag, 9. Dezember', 'DE', { amount: 0, currency: 'EUR' }],
    ['Lieferung für 3,99 € Dienstag, 9. Dezember', 'DE', { amount: 3.99, currency: 'EUR' }],
    ['Livraison GRATUITE mardi 9 décembre', 'FR', { amount: 0, currency: 'EUR' }],
    ['Consegna GRATUITA martedì 9 dicembre', 'IT', { amount: 0, currency: 'EUR' }],
    ['Entrega GRATIS el martes, 9 de diciembre', 'ES', { amount: 0, currency: 'EUR' }],
    ['Frete GRÁTIS terça-feira, 9 de dezembro', 'BR', { amount: 0, currency: 'BRL' }],
    ['配送料無料 12月9日 火曜日', 'JP', { amount: 0, currency: 'JPY' }],
    ['£4.49 delivery 9 - 11 December', 'UK', { amount: 4.49, currency: 'GBP' }],
    ['Darmowa dostawa wtorek, 9 grudnia', 'PL', { amount: 0, currency: 'PLN' }],
  ] as const)('%j (%s)', (text, marketplace, expected) => {
    expect(shippingCharge(text, marketplace)).toEqual(expected);
  });

  it('is null for a message without a charge', () => {
    expect(shippingCharge('Delivery Tuesday, December 9', 'US')).toBeNull();
    expect(shippingCharge('', 'US')).toBeNull();
  });
});

describe('unitPriceOf', () => {
  it.each([
    ['($0.45 / Ounce)', 'US', { amount: 0.45, currency: 'USD', unit: 'Ounce' }],
    ['(6,24 € / kg)', 'DE', { amount: 6.24, currency: 'EUR', unit: 'kg' }],
    ['(₹2.50/count)', 'IN', { amount: 2.5, currency: 'INR', unit: 'count' }],
    ['(£1.20/100 ml)', 'UK', { amount: 1.2, currency: 'GBP', unit: '100 ml' }],
    ['(R$ 0,90 / unidade)', 'BR', { amount: 0.9, currency: 'BRL', unit: 'unidade' }],
  ] as const)('%j (%s)', (text, marketplace, expected) => {
    expect(unitPriceOf(text, marketplace)).toEqual(expected);
  });

  it('is null without a price per unit', () => {
    expect(unitPriceOf('$12.99', 'US')).toBeNull();
    expect(unitPriceOf('(Pack of 6)', 'US')).toBeNull();
  });
});

describe('stockQuantityOf', () => {
  it.each([
    ['Only 3 left in stock - order soon.', 3],
    ['Only 1 left in stock (more on the way).', 1],
    ['Nur noch 3 auf Lager', 3],
    ['Il ne reste plus que 2 exemplaire(s) en stock.', 2],
    ['Solo 4 disponibili', 4],
    ['Solo quedan 5 en stock.', 5],
    ['Apenas 2 em estoque', 2],
    ['残り3点 ご注文はお早めに', 3],
    ['Nog maar 2 op voorraad', 2],
    ['Endast 3 kvar i lager', 3],
    ['Zostało tylko 3 szt.', 3],
    ['Stokta sadece 2 adet kaldı', 2],
  ])('%j', (text, n) => {
    expect(stockQuantityOf(text)).toBe(n);
  });

  it('is null when the count is not said', () => {
    expect(stockQuantityOf('In Stock')).toBeNull();
    expect(stockQuantityOf('Usually ships within 3 days')).toBeNull();
    expect(stockQuantityOf('Auf Lager')).toBeNull();
  });
});

describe('couponValueOf', () => {
  it.each([
    ['Save 20% with coupon', 'US', { type: 'percent', value: 20 }],
    ['Apply $5 coupon', 'US', { type: 'amount', value: 5 }],
    ['5 % Rabatt mit Gutschein', 'DE', { type: 'percent', value: 5 }],
    ['Économisez 10,00 € avec coupon', 'FR', { type: 'amount', value: 10 }],
    ['10%OFF クーポン', 'JP', { type: 'percent', value: 10 }],
    ['Aplicar cupón de 15 %', 'ES', { type: 'percent', value: 15 }],
  ] as const)('%j (%s)', (text, marketplace, expected) => {
    expect(couponValueOf(text, marketplace)).toEqual(expected);
  });

  it('is null without a value', () => {
    expect(couponValueOf('Coupon', 'US')).toBeNull();
  });
});

describe('deliveryPromiseOf', () => {
  it.each([
    ['FREE delivery Tuesday, December 9', 'US', 'Tuesday, December 9', '2026-12-09', '2026-12-09'],
    ['Arrives Dec 9 - 12', 'US', 'Dec 9 - 12', '2026-12-09', '2026-12-12'],
    ['$5.99 delivery Dec 30 - Jan 2', 'US', 'Dec 30 - Jan 2', '2026-12-30', '2027-01-02'],
    ['FREE delivery January 5', 'US', 'January 5', '2027-01-05', '2027-01-05'],
    ['£4.49 delivery 9 - 11 December', 'UK', '9 - 11 December', '2026-12-09', '2026-12-11'],
    ['KOSTENLOSE Lieferung Dienstag, 9. Dezember', 'DE', 'Dienstag, 9. Dezember', '2026-12-09', '2026-12-09'],
    ['Livraison GRATUITE mardi 9 décembre', 'FR', 'mardi 9 décembre', '2026-12-09', '2026-12-09'],
    ['Consegna GRATUITA martedì 9 dicembre', 'IT', 'martedì 9 dicembre', '2026-12-09', '2026-12-09'],
    ['Entrega GRATIS el martes, 9 de diciembre', 'ES', 'martes, 9 de diciembre', '2026-12-09', '2026-12-09'],
    ['Frete GRÁTIS: 9 - 12 de dez.', 'BR', '9 - 12 de dez', '2026-12-09', '2026-12-12'],
    ['配送料無料 12月9日 火曜日', 'JP', '12月9日', '2026-12-09', '2026-12-09'],
    ['Darmowa dostawa wtorek, 9 grudnia', 'PL', 'wtorek, 9 grudnia', '2026-12-09', '2026-12-09'],
    ['GRATIS bezorging dinsdag 9 december', 'NL', 'dinsdag 9 december', '2026-12-09', '2026-12-09'],
    // a countdown after the date is no range's end (nor is a word's hyphen a range)
    ['Livraison GRATUITE vendredi 11 déc. Commandez-le dans les 8 h 5 min', 'FR', 'vendredi 11 déc', '2026-12-11', '2026-12-11'],
    ['FREE delivery Friday, 11 Dec. Order within 14 hrs 3 mins', 'UK', 'Friday, 11 Dec', '2026-12-11', '2026-12-11'],
    ['Lieferung 9. bis 12. Dezember', 'DE', '9. bis 12. Dezember', '2026-12-09', '2026-12-12'],
    ['Livraison du 9 au 12 décembre', 'FR', '9 au 12 décembre', '2026-12-09', '2026-12-12'],
    // a day without a date: the next such day after the fetch (a Wednesday)
    ['FREE delivery: Thursday Details', 'US', 'Thursday', '2026-12-03', '2026-12-03'],
    ['Consegna GRATUITA mercoledì', 'IT', 'mercoledì', '2026-12-09', '2026-12-09'],
    ['Lieferung morgen', 'DE', 'morgen', '2026-12-03', '2026-12-03'],
    ['Livraison GRATUITE demain', 'FR', 'demain', '2026-12-03', '2026-12-03'],
    ['Entrega hoy', 'ES', 'hoy', '2026-12-02', '2026-12-02'],
    ['明日 お届け', 'JP', '明日', '2026-12-03', '2026-12-03'],
  ] as const)('%j (%s)', (text, marketplace, shown, earliest, latest) => {
    expect(deliveryPromiseOf(text, FETCHED, marketplace)).toEqual({ text: shown, earliest, latest });
  });

  it('is null for a message without a date', () => {
    expect(deliveryPromiseOf('FREE delivery on orders over $35', FETCHED, 'US')).toBeNull();
    expect(deliveryPromiseOf('Usually ships within 3 to 4 days', FETCHED, 'US')).toBeNull();
  });
});
