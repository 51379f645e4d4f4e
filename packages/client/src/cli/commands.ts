import { pipeline } from 'node:stream/promises';
import type { CrawlAccount } from '../account';
import type { CrawlClient } from '../client';
import type { ExportFormat, JobStatus, JobType } from '../types';
import { KEY_COMMANDS, ME_COMMANDS } from './key-commands';
import { type CliIo, json, ProgressLine, UsageError, write } from './output';

type OptionSpec = { type: 'string' | 'boolean'; short?: string };
type Values = Record<string, string | boolean | undefined>;

export interface CommandContext {
  /** The API key's client; reading it throws a usage error when no key is configured. */
  client: CrawlClient;
  /** Signs in with --email/--password or CRAWL_EMAIL/CRAWL_PASSWORD, once per run; signed out when the command ends. */
  signIn(): Promise<CrawlAccount>;
  /** From `--project` or CRAWL_PROJECT_ID; throws a usage error when missing. */
  project(): string;
  args: string[];
  values: Values;
  io: CliIo;
}

export interface Command {
  name: string;
  usage: string;
  summary: string;
  help: string;
  options: Record<string, OptionSpec>;
  args: { min: number; max: number };
  run(ctx: CommandContext): Promise<number>;
}

/** Keyed by JobType (the SDK's generated type), so a job type the API gains and the CLI lacks does not compile. */
const JOB_TYPES = Object.keys({ details: true, search: true, offers: true, bestsellers: true, reviews: true } satisfies Record<
  JobType,
  true
>) as JobType[];
const REVIEW_SORTS = ['recent', 'helpful'] as const;
const STATUSES: JobStatus[] = ['queued', 'running', 'completed', 'failed', 'cancelled'];
/** Keyed by ExportFormat, so a format the API gains and the CLI lacks does not compile. */
const FORMATS = Object.keys({ json: true, jsonl: true, csv: true, llm: true } satisfies Record<ExportFormat, true>) as ExportFormat[];

function oneOf<T extends string>(value: string | boolean | undefined, allowed: T[], flag: string, command: string): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}`, `crawl ${command} --help`);
  return value as T;
}

function positiveInt(value: string | boolean | undefined, flag: string, command: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`${flag} must be a positive integer`, `crawl ${command} --help`);
  return Number(value);
}

const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** The job body of `jobs create` and `jobs estimate` (the same flags, the same validation server-side). */
function jobBodyOf(values: Values, args: string[], command: string) {
  const type = oneOf(values.type, JOB_TYPES, '--type', command);
  if (!type) throw new UsageError(`--type is required (${JOB_TYPES.join(', ')})`, `crawl ${command} --help`);
  const config: { marketplace?: string; lang?: string; pages?: number; sort?: (typeof REVIEW_SORTS)[number] } = {};
  if (str(values.marketplace)) config.marketplace = str(values.marketplace);
  if (str(values.lang)) config.lang = str(values.lang);
  const pages = positiveInt(values.pages, '--pages', command);
  if (pages !== undefined) config.pages = pages;
  const sort = oneOf(values.sort, [...REVIEW_SORTS], '--sort', command);
  if (sort) config.sort = sort;
  return { type, targets: args, ...(Object.keys(config).length ? { config } : {}) };
}

const jobsCreate: Command = {
  name: 'jobs create',
  usage:
    'crawl jobs create --type details|search|offers|bestsellers|reviews [--marketplace US] [--lang en-US] [--pages N] [--sort recent|helpful] [--idempotency-key K] [--quiet] TARGET...',
  summary: 'create a crawl job (prints the job, or its id with --quiet)',
  help: `Targets are ASINs or Amazon product URLs for 'details', 'offers' and 'reviews', keywords for
'search' (quote keywords with spaces), best-seller list URLs of the marketplace for 'bestsellers';
--pages crawls that many pages per target (search: result pages, 1 to 7, default 1; reviews:
review pages, 1 to 10, default 1; offers: offer-listing pages, 1 to 10, default 10, every offer);
--sort (reviews) orders reviews by recent or helpful.
Credits are reserved at once: 2 per details target, 5 per best-seller list, 5 per keyword and
page, 2 per product and review or offer-listing page; pages a target does not have are refunded
when the job ends. The request
carries an Idempotency-Key (generated unless given), so a retry after a network error never
creates a second job.`,
  options: {
    type: { type: 'string' },
    marketplace: { type: 'string' },
    lang: { type: 'string' },
    pages: { type: 'string' },
    sort: { type: 'string' },
    'idempotency-key': { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
  },
  args: { min: 1, max: Infinity },
  async run({ client, project, args, values, io }) {
    const job = await client.jobs.create(project(), jobBodyOf(values, args, 'jobs create'), {
      idempotencyKey: str(values['idempotency-key']),
    });
    await write(io.stdout, values.quiet ? `${job.id}\n` : json(job));
    return 0;
  },
};

const jobsEstimate: Command = {
  name: 'jobs estimate',
  usage:
    'crawl jobs estimate --type details|search|offers|bestsellers|reviews [--marketplace US] [--lang en-US] [--pages N] [--sort recent|helpful] TARGET...',
  summary: 'print what a job would cost and whether it would be accepted now (creates nothing)',
  help: `The same arguments as 'jobs create', validated the same way. Prints {targets, pages,
creditsPerTarget, cost, balance, accepted, refusal}. Exit status 0 when it would be accepted, 1 when not.`,
  options: {
    type: { type: 'string' },
    marketplace: { type: 'string' },
    lang: { type: 'string' },
    pages: { type: 'string' },
    sort: { type: 'string' },
  },
  args: { min: 1, max: Infinity },
  async run({ client, project, args, values, io }) {
    const estimate = await client.jobs.estimate(project(), jobBodyOf(values, args, 'jobs estimate'));
    await write(io.stdout, json(estimate));
    return estimate.accepted ? 0 : 1;
  },
};

const jobsGet: Command = {
  name: 'jobs get',
  usage: 'crawl jobs get ID',
  summary: 'print a job',
  help: 'Prints the job as JSON: status, progress {total, succeeded, failed}, credits, per-target errors.',
  options: {},
  args: { min: 1, max: 1 },
  async run({ client, args, io }) {
    await write(io.stdout, json(await client.jobs.get(args[0]!)));
    return 0;
  },
};

const jobsList: Command = {
  name: 'jobs list',
  usage: 'crawl jobs list [--status S] [--q Q] [--from DATE] [--to DATE] [--limit N]',
  summary: "list the project's jobs, newest first (one JSON object per line)",
  help: `--status is one of ${STATUSES.join(', ')}; --q searches keywords, ASINs, targets and job ids;
--from/--to take ISO dates or timestamps (a bare --to date covers that whole day).
--limit is how many jobs to print (default 20); more than 100 are fetched page by page.`,
  options: {
    status: { type: 'string' },
    q: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    limit: { type: 'string' },
  },
  args: { min: 0, max: 0 },
  async run({ client, project, values, io }) {
    const limit = positiveInt(values.limit, '--limit', 'jobs list') ?? 20;
    const filter = {
      status: oneOf(values.status, STATUSES, '--status', 'jobs list'),
      q: str(values.q),
      from: str(values.from),
      to: str(values.to),
    };
    let printed = 0;
    for await (const job of client.jobs.iterate(project(), { ...filter, limit: Math.min(limit, 100) })) {
      await write(io.stdout, `${JSON.stringify(job)}\n`);
      if (++printed >= limit) break;
    }
    return 0;
  },
};

const jobsWait: Command = {
  name: 'jobs wait',
  usage: 'crawl jobs wait ID [--timeout SECONDS] [--quiet]',
  summary: 'wait until a job is completed, failed or cancelled',
  help: `Polls after 2, 5, then every 10 seconds and shows a progress line on stderr. Prints the final
job on stdout (nothing with --quiet). Exit status: 0 completed, 1 failed or cancelled, 2 error
(including --timeout running out).`,
  options: { timeout: { type: 'string' }, quiet: { type: 'boolean', short: 'q' } },
  args: { min: 1, max: 1 },
  async run({ client, args, values, io }) {
    const timeout = positiveInt(values.timeout, '--timeout', 'jobs wait');
    const progress = values.quiet ? null : new ProgressLine(io.stderr);
    try {
      const job = await client.jobs.waitFor(args[0]!, {
        timeoutMs: timeout === undefined ? undefined : timeout * 1000,
        onProgress: (j) => progress?.update(j),
      });
      progress?.stop();
      if (!values.quiet) await write(io.stdout, json(job));
      return job.status === 'completed' ? 0 : 1;
    } finally {
      progress?.stop();
    }
  },
};

const jobsCancel: Command = {
  name: 'jobs cancel',
  usage: 'crawl jobs cancel ID',
  summary: 'cancel a queued or running job (targets not crawled yet are refunded)',
  help: 'Prints the cancelled job. Cancelling a job that already ended is an INVALID_STATE error.',
  options: {},
  args: { min: 1, max: 1 },
  async run({ client, args, io }) {
    await write(io.stdout, json(await client.jobs.cancel(args[0]!)));
    return 0;
  },
};

const jobsRetry: Command = {
  name: 'jobs retry',
  usage: 'crawl jobs retry ID [--failed] [--idempotency-key K] [--quiet]',
  summary: 'create a new job with the targets of a failed or cancelled job (or only its failed ones)',
  help: `Prints the NEW job (or its id with --quiet). Credits are reserved for its targets.
--failed: only the targets that failed or were cancelled, of any finished job (a completed one too).`,
  options: { failed: { type: 'boolean' }, 'idempotency-key': { type: 'string' }, quiet: { type: 'boolean', short: 'q' } },
  args: { min: 1, max: 1 },
  async run({ client, args, values, io }) {
    const job = await client.jobs.retry(args[0]!, {
      idempotencyKey: str(values['idempotency-key']),
      ...(values.failed ? { targets: 'failed' as const } : {}),
    });
    await write(io.stdout, values.quiet ? `${job.id}\n` : json(job));
    return 0;
  },
};

const jobsDelete: Command = {
  name: 'jobs delete',
  usage: 'crawl jobs delete ID',
  summary: 'delete the results of a finished job (the job itself stays)',
  help: 'Prints the job, with resultsPurgedAt. Its results and export answer GONE afterwards. A queued or running job is an INVALID_STATE error.',
  options: {},
  args: { min: 1, max: 1 },
  async run({ client, args, io }) {
    await write(io.stdout, json(await client.jobs.delete(args[0]!)));
    return 0;
  },
};

const usageCommand: Command = {
  name: 'usage',
  usage: 'crawl usage [--from DATE] [--to DATE] [--limit N] [--offset N]',
  summary: "print the credit balance, plan, rate limit and the project's credit ledger",
  help: `Prints the usage object, like the other commands print theirs: the organization's balance and
plan, the rate limit in force, the project's credit totals over the range (default: the last 30
days) and one page of its ledger (--limit entries from --offset). When the ledger has more
entries than that page, one line on stderr says how many and which --offset comes next.`,
  options: { from: { type: 'string' }, to: { type: 'string' }, limit: { type: 'string' }, offset: { type: 'string' } },
  args: { min: 0, max: 0 },
  async run({ client, project, values, io }) {
    const offset = str(values.offset) === '0' ? 0 : positiveInt(values.offset, '--offset', 'usage');
    const query = { from: str(values.from), to: str(values.to), limit: positiveInt(values.limit, '--limit', 'usage'), offset };
    const { data, pagination } = await client.usage(project(), query);
    await write(io.stdout, json(data));
    if (pagination.hasMore) {
      const shown = `${pagination.offset + 1}-${pagination.offset + data.ledger.length}`;
      await write(
        io.stderr,
        `ledger: entries ${shown} of ${pagination.total}; --offset ${pagination.offset + data.ledger.length} for the next page\n`,
      );
    }
    return 0;
  },
};

const exportCommand: Command = {
  name: 'export',
  usage: 'crawl export ID [--format json|jsonl|csv|llm] [--output FILE]',
  summary: 'download the export of a completed job (to stdout, or to FILE)',
  help: `Streams the export as the API sends it: json (array of result items, the default), csv (one row
per item, CRLF line ends) or llm (normalized, versioned JSON). With --output the file appears
only once the download is complete. Only completed jobs can be exported (JOB_NOT_COMPLETE).`,
  options: { format: { type: 'string', short: 'f' }, output: { type: 'string', short: 'o' } },
  args: { min: 1, max: 1 },
  async run({ client, args, values, io }) {
    const format = oneOf(values.format, FORMATS, '--format', 'export') ?? 'json';
    const output = str(values.output);
    if (output) {
      await client.jobs.exportToFile(args[0]!, format, output);
      return 0;
    }
    await pipeline(await client.jobs.export(args[0]!, format), io.stdout, { end: false });
    return 0;
  },
};

const resultsCommand: Command = {
  name: 'results',
  usage: 'crawl results ID',
  summary: 'print every result item of a job, one JSON object per line (NDJSON)',
  help: 'Pages through GET /jobs/{id}/results 1,000 items at a time.',
  options: {},
  args: { min: 1, max: 1 },
  async run({ client, args, io }) {
    for await (const item of client.jobs.iterateResults(args[0]!)) await write(io.stdout, `${JSON.stringify(item)}\n`);
    return 0;
  },
};

export const JOB_COMMANDS: Command[] = [jobsCreate, jobsEstimate, jobsGet, jobsList, jobsWait, jobsCancel, jobsRetry, jobsDelete];
export const TOP_COMMANDS: Command[] = [exportCommand, resultsCommand, usageCommand, ...ME_COMMANDS];
export const ALL_COMMANDS: Command[] = [...JOB_COMMANDS, ...KEY_COMMANDS, ...TOP_COMMANDS];
