import { checkPostalCode, postalCodeIn, postalCodeMatches } from './postal-codes';

describe('checkPostalCode', () => {
  it.each([
    ['US', '10001', '10001'],
    ['US', ' 10001-1234 ', '10001-1234'],
    ['UK', 'sw1a1aa', 'SW1A 1AA'],
    ['UK', 'W12  7RJ', 'W12 7RJ'],
    ['CA', 'k1a0b1', 'K1A 0B1'],
    ['JP', '1000001', '100-0001'],
    ['JP', '100-0001', '100-0001'],
    ['BR', '01310100', '01310-100'],
    ['IN', '110001', '110001'],
    ['DE', '10115', '10115'],
    ['NL', '1012ab', '1012 AB'],
    ['PL', '00950', '00-950'],
    ['SE', '11122', '111 22'],
    ['AU', '2000', '2000'],
    ['AE', 'dubai-1', 'DUBAI-1'],
  ] as const)('%s accepts %j as %j', (marketplace, raw, normalised) => {
    expect(checkPostalCode(marketplace, raw)).toEqual({ ok: true, postalCode: normalised });
  });

  it.each([
    ['US', '1000'],
    ['US', '100011'],
    ['US', 'ABCDE'],
    ['UK', '12345'],
    ['CA', '123456'],
    ['JP', '12-34567'],
    ['DE', '1011'],
    ['NL', '1012'],
    ['IN', '11000'],
    ['AE', 'x'],
    ['AE', 'a very long code'],
    ['US', '10001\u0000'],
  ] as const)('%s refuses %j, naming an example', (marketplace, raw) => {
    const check = checkPostalCode(marketplace, raw);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(new RegExp(`marketplace ${marketplace} \\(for example .+\\)`));
  });
});

describe('postalCodeIn', () => {
  it.each([
    ['US', 'Chicago 60601', '60601'],
    ['US', 'New York 10001\u200c', '10001'],
    ['US', 'Beverly Hills 90210-1234', '90210-1234'],
    ['UK', 'Fulham W12', 'W12'],
    ['UK', 'London SW1A 1', 'SW1A 1'],
    ['CA', 'Ottawa K1A 0B1', 'K1A 0B1'],
    ['JP', '〒100-0001', '100-0001'],
    ['BR', 'São Paulo 01310-100', '01310-100'],
    ['DE', 'Berlin 10115', '10115'],
    ['NL', 'Amsterdam 1012 AB', '1012 AB'],
    ['IN', 'Delhi 110001', '110001'],
  ] as const)('%s finds the code in %j', (marketplace, place, code) => {
    expect(postalCodeIn(marketplace, place)).toBe(code);
  });

  it('is null for a place without a code', () => {
    expect(postalCodeIn('US', 'Select your address')).toBeNull();
    expect(postalCodeIn('DE', 'Berlin')).toBeNull();
    expect(postalCodeIn('US', 'Suite 1200 zone')).toBeNull();
  });
});

describe('postalCodeMatches', () => {
  it('matches the same code, or its leading part, ignoring case, spaces and hyphens', () => {
    expect(postalCodeMatches('60601', '60601')).toBe(true);
    expect(postalCodeMatches('W12', 'W12 7RJ')).toBe(true);
    expect(postalCodeMatches('w12 7rj', 'W12 7RJ')).toBe(true);
    expect(postalCodeMatches('10001', '10001-1234')).toBe(true);
    expect(postalCodeMatches('1000001', '100-0001')).toBe(true);
  });

  it('does not match another code, a longer one, or a single character', () => {
    expect(postalCodeMatches('60602', '60601')).toBe(false);
    expect(postalCodeMatches('W1', 'W12 7RJ')).toBe(false); // another district
    expect(postalCodeMatches('SW1A 1', 'SW1A 1AA')).toBe(true);
    expect(postalCodeMatches('1000', '10001-1234')).toBe(false);
    expect(postalCodeMatches('1011', '10115')).toBe(false);
    expect(postalCodeMatches('SW1', 'W12 7RJ')).toBe(false);
    expect(postalCodeMatches('10001-1234', '10001')).toBe(false);
    expect(postalCodeMatches('6', '60601')).toBe(false);
    expect(postalCodeMatches('', '60601')).toBe(false);
  });
});
