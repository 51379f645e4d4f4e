import { currencyForMarketplace, detectCurrency, parseCount, parseLocaleNumber, parseMoney, parseRating } from './numbers';

describe('parseLocaleNumber', () => {
  it.each([
    ['1.234,56 €', 1234.56],
    ['$1,234.56', 1234.56],
    ['R$ 169,00', 169],
    ['¥1,980', 1980],
    ['₹1,499.00', 1499],
    ['₹1,23,456.00', 123456],
    ['1 234,56 zł', 1234.56],
    ['1\u00a0234,56 €', 1234.56],
    ['1\u202f234,56 €', 1234.56],
    ['CHF 1’234.50', 1234.5],
    ["CHF 1'234.50", 1234.5],
    ['84.7K', 84700],
    ['(84.7K)', 84700],
    ['1,2 mil valoraciones', 1200],
    ['3 mil', 3000],
    ['1,2 Mio.', 1200000],
    ['1.2万', 12000],
    ['5.182 valoraciones', 5182],
    ['4,1 de 5 estrellas', 4.1],
    ['4.3 out of 5 stars', 4.3],
    ['82,602 ratings', 82602],
    ['1,959 avaliações', 1959],
    ['nº1,643,215 en Hogar y cocina', 1643215],
    ['12.345.678', 12345678],
    ['0,99 €', 0.99],
    ['0.123', 0.123],
    ['1234,567', 1234.567],
    ['EUR 9,99', 9.99],
    ['39,99€', 39.99],
    ['CDN$ 154.71', 154.71],
    ['In Stock.', null],
    ['', null],
  ])('%s -> %p', (input, expected) => {
    expect(parseLocaleNumber(input)).toBe(expected);
  });

  it('does not glue separate numbers joined by a single space', () => {
    expect(parseLocaleNumber('4 5')).toBe(4);
    expect(parseLocaleNumber('2 x 3 cm')).toBe(2);
  });
});

describe('parseCount', () => {
  it.each([
    ['(226)', 226],
    ['226 Reviews', 226],
    ['(1K)', 1000],
    ['1.5K', 1500],
    ['5.182 valoraciones', 5182],
    ['21,200 ratings', 21200],
    ['34 commentaires client', 34],
    ['3 customer reviews', 3],
    [null, null],
  ])('%s -> %p', (input, expected) => {
    expect(parseCount(input)).toBe(expected);
  });
});

describe('parseRating', () => {
  it.each([
    ['4.5 out of 5 stars', 4.5],
    ['4,1 de 5 estrellas', 4.1],
    ['4,6 de 5 estrelas', 4.6],
    ['4.3 étoiles sur 5', 4.3],
    ['5 von 5 Sternen', 5],
    ['4,3 von 5 Sternen', 4.3],
    ['5.0 out of 5 stars', 5],
    ['5つ星のうち4.3', 4.3],
    ['5つ星のうち5.0', 5],
    ['4,5 su 5 stelle', 4.5],
    ['Prime', null],
    [undefined, null],
  ])('%s -> %p', (input, expected) => {
    expect(parseRating(input)).toBe(expected);
  });
});

describe('parseMoney', () => {
  it.each([
    ['$8.99', 'US', { amount: 8.99, currency: 'USD' }],
    ['$1,234.56', 'US', { amount: 1234.56, currency: 'USD' }],
    ['EUR 4,79', 'DE', { amount: 4.79, currency: 'EUR' }],
    ['39,99€', 'FR', { amount: 39.99, currency: 'EUR' }],
    ['1.234,56 €', 'IT', { amount: 1234.56, currency: 'EUR' }],
    ['R$431,90', 'BR', { amount: 431.9, currency: 'BRL' }],
    ['R$ 169,00', 'BR', { amount: 169, currency: 'BRL' }],
    ['R$ 1.169,00', 'BR', { amount: 1169, currency: 'BRL' }],
    ['CDN$ 154.71', 'CA', { amount: 154.71, currency: 'CAD' }],
    ['$154.71', 'CA', { amount: 154.71, currency: 'CAD' }],
    ['US$ 20.00', 'CA', { amount: 20, currency: 'USD' }],
    ['$1,299.00', 'MX', { amount: 1299, currency: 'MXN' }],
    ['£46.55', 'UK', { amount: 46.55, currency: 'GBP' }],
    ['¥1,980', 'JP', { amount: 1980, currency: 'JPY' }],
    ['￥ 12,800', 'JP', { amount: 12800, currency: 'JPY' }],
    ['₹1,499.00', 'IN', { amount: 1499, currency: 'INR' }],
    ['1 234,56 zł', 'PL', { amount: 1234.56, currency: 'PLN' }],
    ['1.234,56 TL', 'TR', { amount: 1234.56, currency: 'TRY' }],
    ['₺899,90', 'TR', { amount: 899.9, currency: 'TRY' }],
    ['1 299,00 kr', 'SE', { amount: 1299, currency: 'SEK' }],
    ['AED 1,234.00', 'AE', { amount: 1234, currency: 'AED' }],
    ['SAR 99.00', 'SA', { amount: 99, currency: 'SAR' }],
    ['S$25.90', 'SG', { amount: 25.9, currency: 'SGD' }],
    ['EGP 1,500.00', 'EG', { amount: 1500, currency: 'EGP' }],
    ['CHF 1’234.50', 'DE', { amount: 1234.5, currency: 'CHF' }],
    ['A$ 59.95', 'AU', { amount: 59.95, currency: 'AUD' }],
    ['EUR 8,99 - EUR 16,99', 'DE', { amount: 8.99, currency: 'EUR' }],
    ['$19.99 - $29.99', 'US', { amount: 19.99, currency: 'USD' }],
    ['9,99', 'ES', { amount: 9.99, currency: 'EUR' }],
    ['R$\u00a019,90', 'BR', { amount: 19.9, currency: 'BRL' }],
  ])('%s (%s)', (text, mk, expected) => {
    expect(parseMoney(text, mk)).toEqual(expected);
  });

  it('returns null without digits', () => {
    expect(parseMoney('Currently unavailable.', 'US')).toBeNull();
    expect(parseMoney('', 'US')).toBeNull();
  });
});

describe('currencies', () => {
  it('maps marketplaces to their default currency', () => {
    expect(currencyForMarketplace('US')).toBe('USD');
    expect(currencyForMarketplace('uk')).toBe('GBP');
    expect(currencyForMarketplace('DE')).toBe('EUR');
    expect(currencyForMarketplace('BR')).toBe('BRL');
    expect(currencyForMarketplace('JP')).toBe('JPY');
    expect(currencyForMarketplace('IN')).toBe('INR');
    expect(currencyForMarketplace('CA')).toBe('CAD');
    expect(currencyForMarketplace('MX')).toBe('MXN');
    expect(currencyForMarketplace('AU')).toBe('AUD');
    expect(currencyForMarketplace('SE')).toBe('SEK');
    expect(currencyForMarketplace('PL')).toBe('PLN');
    expect(currencyForMarketplace('TR')).toBe('TRY');
    expect(currencyForMarketplace('AE')).toBe('AED');
    expect(currencyForMarketplace('SA')).toBe('SAR');
    expect(currencyForMarketplace('SG')).toBe('SGD');
    expect(currencyForMarketplace('EG')).toBe('EGP');
    expect(currencyForMarketplace('BE')).toBe('EUR');
    expect(currencyForMarketplace('NL')).toBe('EUR');
    expect(currencyForMarketplace('XX')).toBe('USD');
  });

  it('resolves a bare "$" with the marketplace and ignores letters inside words', () => {
    expect(detectCurrency('$5', 'AU')).toBe('AUD');
    expect(detectCurrency('$5', 'DE')).toBe('USD');
    expect(detectCurrency('Only 6 left in stock', 'UK')).toBeNull();
  });
});
