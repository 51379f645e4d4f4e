import {
  defaultPages,
  isMarketplaceCode,
  checkPostalCode,
  type CrawlConfig,
  isSafeText,
  JOB_KINDS,
  type JobSpec,
  JOB_TYPES,
  MARKETPLACE_CODES,
  MAX_OFFER_PAGES,
  MAX_PAGES,
  MAX_REVIEW_PAGES,
  MAX_SEARCH_PAGES,
  type MarketplaceCode,
  normalizeTargets,
  REVIEW_SORTS,
  UNSAFE_TEXT_MESSAGE,
} from '@crawl/core';
import { z } from 'zod';

/** Locale hints such as `en`, `en-US`, `pt_BR`; normalized to `xx-YY`. */
const LANG_PATTERN = /^([a-zA-Z]{2,3})(?:[-_]([a-zA-Z]{2}))?$/;

/** "search, offers and reviews": the job types `config.pages` applies to, for its refusal message. */
const MULTI_PAGE_TYPES = JOB_TYPES.filter((type) => MAX_PAGES[type] !== undefined)
  .join(', ')
  .replace(/, ([^,]+)$/, ' and $1');

export const langSchema = z
  .string()
  .regex(LANG_PATTERN, 'must be a locale such as en-US')
  .transform((v) => {
    const [, language, region] = LANG_PATTERN.exec(v)!;
    return region ? `${language!.toLowerCase()}-${region.toUpperCase()}` : language!.toLowerCase();
  });

export const marketplaceSchema = z
  .string()
  .transform((v) => v.toUpperCase())
  .refine(isMarketplaceCode, { message: `must be one of ${MARKETPLACE_CODES.join(', ')}` })
  .transform((v) => v as MarketplaceCode);

/**
 * The job creation body (also a schedule's `crawlConfig`). Unknown fields are
 * rejected so that a typo such as `target` is an error, not a silently ignored option.
 * Output: the job's spec (`JobSpec` in @crawl/core): targets validated, normalized and
 * de-duplicated, marketplace resolved, the type's page default applied. A new option is a
 * field of `config` here and of `JobOptions` (docs/adding-a-job-type.md, "Adding a job option").
 */
export const jobBodySchema = z
  .object({
    type: z.enum(JOB_TYPES),
    targets: z
      .array(z.string().max(2048, 'must be at most 2048 characters').refine(isSafeText, UNSAFE_TEXT_MESSAGE))
      .min(1, 'must contain at least one target')
      .max(5000, 'too many targets'),
    config: z
      .object({
        marketplace: marketplaceSchema.optional(),
        lang: langSchema.optional(),
        pages: z
          .number()
          .int('must be a whole number of pages')
          .min(1, 'must be at least 1')
          // The maximum depends on the type (checked below, naming the type's own maximum): a
          // bound of the largest here would answer "at most 10" to a search, whose maximum is 7.
          .optional()
          .describe(
            `Search, reviews and offers only: pages crawled per target: result pages per keyword, 1 to ${MAX_SEARCH_PAGES} (default 1); review pages per product, 1 to ${MAX_REVIEW_PAGES} (default 1); offer-listing pages per product, 1 to ${MAX_OFFER_PAGES} (default ${MAX_OFFER_PAGES}: every offer). Every page is reserved, charged per page crawled; pages a target does not have are refunded`,
          ),
        sort: z
          .enum(REVIEW_SORTS)
          .optional()
          .describe('Reviews only: the review order (`recent` or `helpful`); the marketplace default when absent'),
        postalCode: z
          .string()
          .max(20, 'must be at most 20 characters')
          .optional()
          .describe(
            "Where the shopper is: prices, availability, shipping and delivery dates are crawled for this postal code of the job's marketplace (US 10001 or 10001-1234, UK SW1A 1AA, DE 10115, JP 100-0001, ...). Absent: the location the marketplace gives, which every item reports in `deliveryLocation`",
          ),
      })
      .strict()
      .optional(),
  })
  .strict()
  .transform((body, ctx): JobSpec => {
    const normalized = normalizeTargets(body.type, body.targets, body.config?.marketplace);
    for (const issue of normalized.issues) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: issue.index >= 0 ? ['targets', issue.index] : ['targets'],
        message: issue.message,
      });
    }
    // Details and best-seller targets are one page; accepting `pages` there would suggest a depth they never get.
    const maxPages = MAX_PAGES[body.type];
    const pages = body.config?.pages;
    if (pages !== undefined && maxPages === undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['config', 'pages'], message: `applies to ${MULTI_PAGE_TYPES} jobs only` });
    } else if (pages !== undefined && maxPages !== undefined && pages > maxPages) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['config', 'pages'],
        message: `must be at most ${maxPages} for ${body.type} jobs`,
      });
    }
    if (body.config?.sort !== undefined && !JOB_KINDS[body.type].sortable) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['config', 'sort'], message: 'applies to reviews jobs only' });
    }
    let postalCode: string | null = null;
    if (body.config?.postalCode !== undefined) {
      const check = checkPostalCode(normalized.marketplace, body.config.postalCode);
      if (check.ok) postalCode = check.postalCode;
      else ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['config', 'postalCode'], message: check.message });
    }
    return {
      type: body.type,
      targets: normalized.targets,
      marketplace: normalized.marketplace,
      lang: body.config?.lang ?? null,
      pages: maxPages !== undefined ? (pages ?? defaultPages(body.type)) : null,
      sort: JOB_KINDS[body.type].sortable ? (body.config?.sort ?? null) : null,
      postalCode,
    };
  });

/**
 * A spec as the API shows it (a schedule's `crawlConfig`): the body that makes the same spec
 * again, with every option resolved; one that does not apply to the type is left out.
 */
export function crawlConfigOf(spec: JobSpec): CrawlConfig {
  const { type, targets, pages, sort, postalCode, ...config } = spec;
  return {
    type,
    targets,
    config: {
      ...config,
      ...(pages !== null ? { pages } : {}),
      ...(sort !== null ? { sort } : {}),
      ...(postalCode !== null ? { postalCode } : {}),
    },
  };
}
