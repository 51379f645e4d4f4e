import { parseReviewDate } from './review-date';

describe('parseReviewDate', () => {
  it.each([
    // en (US month-first, UK/IN day-first)
    ['Reviewed in the United States on January 6, 2024', '2024-01-06', 'United States'],
    ['Reviewed in Italy on 3 June 2023', '2023-06-03', 'Italy'],
    ['Reviewed in the United Kingdom on 21 July 2022', '2022-07-21', 'United Kingdom'],
    ['Reviewed in India on 1 September 2023', '2023-09-01', 'India'],
    ['January 6, 2019', '2019-01-06', null],
    ['on 5 March 2018', '2018-03-05', null],
    // it
    ['Recensito in Italia il 12 novembre 2018', '2018-11-12', 'Italia'],
    ["Recensito in Italia l'8 marzo 2021", '2021-03-08', 'Italia'],
    ['Recensito negli Stati Uniti il 2 dicembre 2022', '2022-12-02', 'Stati Uniti'],
    ['14 novembre 2018', '2018-11-14', null],
    // de
    ['Rezension aus Deutschland vom 5. März 2023', '2023-03-05', 'Deutschland'],
    ['Rezension aus den Vereinigten Staaten vom 17. Dezember 2022', '2022-12-17', 'Vereinigten Staaten'],
    ['Rezension aus dem Vereinigten Königreich 🇬🇧 am 1. Februar 2024', '2024-02-01', 'Vereinigten Königreich'],
    ['am 3. Oktober 2018', '2018-10-03', null],
    // fr
    ['Commenté en France le 3 juin 2023', '2023-06-03', 'France'],
    ['Commenté aux États-Unis le 1er février 2024', '2024-02-01', 'États-Unis'],
    ['Commenté au Canada le 28 août 2021', '2021-08-28', 'Canada'],
    // es
    ['Revisado en España el 3 de junio de 2023', '2023-06-03', 'España'],
    ['Revisado en los Estados Unidos el 15 de septiembre de 2022', '2022-09-15', 'Estados Unidos'],
    ['Calificado en México el 9 de octubre de 2023', '2023-10-09', 'México'],
    // pt
    ['Avaliado no Brasil em 3 de junho de 2023', '2023-06-03', 'Brasil'],
    ['Avaliado nos Estados Unidos em 11 de março de 2022', '2022-03-11', 'Estados Unidos'],
    // nl
    ['Beoordeeld in Nederland op 3 juni 2023', '2023-06-03', 'Nederland'],
    ['Beoordeeld in Nederland 🇳🇱 op 3 juni 2023', '2023-06-03', 'Nederland'],
    ['Beoordeeld in de Verenigde Staten op 12 mei 2021', '2021-05-12', 'Verenigde Staten'],
    // sv
    ['Recenserad i Sverige den 3 juni 2023', '2023-06-03', 'Sverige'],
    ['Recenserad i USA den 30 januari 2022', '2022-01-30', 'USA'],
    // pl (genitive month names)
    ['Oceniono w Polsce dnia 3 czerwca 2023', '2023-06-03', 'Polsce'],
    ['Zrecenzowano w Polsce dnia 21 października 2022', '2022-10-21', 'Polsce'],
    // tr
    ["Türkiye'de 3 Haziran 2023 tarihinde değerlendirildi", '2023-06-03', 'Türkiye'],
    ["Türkiye'de 14 Şubat 2022 tarihinde değerlendirildi", '2022-02-14', 'Türkiye'],
    // ja
    ['2023年6月3日に日本でレビュー済み', '2023-06-03', '日本'],
    ['2019年12月25日に日本でレビュー済み', '2019-12-25', '日本'],
    // ar (Arabic and Arabic-Indic digits)
    ['تمت المراجعة في الإمارات العربية المتحدة في 3 يونيو 2023', '2023-06-03', 'الإمارات العربية المتحدة'],
    ['تمت المراجعة في المملكة العربية السعودية في ١٥ مارس ٢٠٢٢', '2022-03-15', 'المملكة العربية السعودية'],
  ])('%s', (text, date, country) => {
    expect(parseReviewDate(text)).toEqual({ date, country });
  });

  it('rejects text without a date and impossible dates', () => {
    expect(parseReviewDate('')).toEqual({ date: null, country: null });
    expect(parseReviewDate(null)).toEqual({ date: null, country: null });
    expect(parseReviewDate('Reviewed in the United States')).toEqual({ date: null, country: null });
    expect(parseReviewDate('Reviewed in the United States on February 30, 2023')).toEqual({ date: null, country: null });
  });
});

describe('parseReviewDate in a named language', () => {
  it.each<[string, Parameters<typeof parseReviewDate>[1], string | null]>([
    ['27 set. 2020', 'pt', '2020-09-27'],
    ['3 out. 2019', 'pt', '2019-10-03'],
    ['12 fev. 2021', 'pt', '2021-02-12'],
    ['5 ene. 2022', 'es', '2022-01-05'],
    ['9 dic. 2018', 'es', '2018-12-09'],
    ['4 giu 2020', 'it', '2020-06-04'],
    ['1 mrt. 2020', 'nl', '2020-03-01'],
    ['27/11/2020', 'pt', '2020-11-27'],
    // Without a language, words that are months in one language only stay no month, and a
    // slashed date has no known order.
    ['27 set. 2020', undefined, null],
    ['27/11/2020', undefined, null],
    ['11/27/2020', 'en', null],
  ])('%s (%s) -> %s', (text, lang, date) => {
    expect(parseReviewDate(text, lang).date).toBe(date);
  });
});
