import { normalizeAsin, normalizeTargets } from './targets';

/** Issue 16.7: the characters are checked as sent, then upper-cased. */
it('accepts 10 ASCII letters or digits as sent, trimmed, and upper-cases them', () => {
  expect(normalizeAsin(' b0dr8g428s\t')).toBe('B0DR8G428S');
  for (const bad of ['ßßßßß', 'ﬀﬀﬀﬀﬀ', 'B0DR8G428ı', 'B0DR8G428', 'B0DR8G428SS', 'B0DR 8G428']) expect(normalizeAsin(bad)).toBeNull();
  const { targets, issues } = normalizeTargets('details', ['ßßßßß', 'b0dr8g428s'], 'US');
  expect(targets).toEqual(['B0DR8G428S']);
  expect(issues).toEqual([{ index: 0, message: expect.stringContaining('ASIN') }]);
});
