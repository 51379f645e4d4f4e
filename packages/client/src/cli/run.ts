import { parseArgs } from 'node:util';
import { CrawlAccount } from '../account';
import { CrawlClient } from '../client';
import { SDK_VERSION } from '../transport';
import { ALL_COMMANDS, type Command, type CommandContext, JOB_COMMANDS, TOP_COMMANDS } from './commands';
import { KEY_COMMANDS } from './key-commands';
import { type CliIo, formatError, UsageError, write } from './output';

type OptionSpec = { type: 'string' | 'boolean'; short?: string };

const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  'api-key': { type: 'string' },
  project: { type: 'string', short: 'p' },
  'base-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

const GLOBAL_HELP = `Options for every command:
  --api-key KEY     API key (default: $CRAWL_API_KEY; prefer the variable, flags show in ps)
  --project ID      project id, for commands that take one (default: $CRAWL_PROJECT_ID)
  --base-url URL    API origin (default: $CRAWL_BASE_URL, else http://localhost:8080)
  -h, --help        show help`;

const list = (commands: Command[]) => commands.map((c) => `  ${c.name.padEnd(14)} ${c.summary}`).join('\n');

const TOP_HELP = `crawl ${SDK_VERSION}: command-line client of the crawl data service

Usage: crawl <command> [options]

Commands:
${list(JOB_COMMANDS)}
${list(KEY_COMMANDS)}
${list(TOP_COMMANDS)}

${GLOBAL_HELP}

Errors print 'error CODE: message (request id)' on stderr and exit with status 2.
Run 'crawl <command> --help' for a command's options.
`;

/** Commands under a group word (`crawl jobs …`, `crawl keys …`), with the group's help. */
const groupHelp = (group: string, commands: Command[]) => `Usage: crawl ${group} <command> [options]

Commands:
${list(commands)}

${GLOBAL_HELP}
`;
const GROUPS = new Map<string, Command[]>([
  ['jobs', JOB_COMMANDS],
  ['keys', KEY_COMMANDS],
]);

const commandHelp = (c: Command) => `Usage: ${c.usage}

${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.

${c.help}

${GLOBAL_HELP}
`;

/** Every option of every command: the first pass must know which options take a value to find the command words. */
const ALL_OPTIONS: Record<string, OptionSpec> = Object.assign({}, GLOBAL_OPTIONS, ...ALL_COMMANDS.map((c) => c.options));

function resolve(words: string[]): { command: Command | null; help: string; rest: string[]; helpCommand: string } {
  const group = words[0] !== undefined ? GROUPS.get(words[0]) : undefined;
  if (group) {
    const command = group.find((c) => c.name === `${words[0]} ${words[1]}`) ?? null;
    if (!command && words[1] !== undefined) throw new UsageError(`unknown command '${words[0]} ${words[1]}'`, `crawl ${words[0]} --help`);
    return {
      command,
      help: command ? commandHelp(command) : groupHelp(words[0]!, group),
      rest: words.slice(2),
      helpCommand: command ? `crawl ${command.name} --help` : `crawl ${words[0]} --help`,
    };
  }
  const command = TOP_COMMANDS.find((c) => c.name === words[0]) ?? null;
  if (!command && words[0] !== undefined && words[0] !== 'help') throw new UsageError(`unknown command '${words[0]}'`);
  return {
    command,
    help: command ? commandHelp(command) : TOP_HELP,
    rest: words.slice(1),
    helpCommand: command ? `crawl ${command.name} --help` : 'crawl --help',
  };
}

/**
 * Runs one command line and returns the exit status: 0 success, 1 a waited-for job failed or
 * was cancelled, 2 any error (API, network, usage). Never calls process.exit, so that output
 * still buffered in stdout is flushed.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
      await write(io.stdout, `${SDK_VERSION}\n`);
      return 0;
    }
    const loose = parseArgs({ args: argv, options: ALL_OPTIONS, strict: false, allowPositionals: true });
    const { command, help, rest, helpCommand } = resolve(loose.positionals);
    if (!command) {
      if (loose.values.help || loose.positionals[0] === 'help') {
        await write(io.stdout, help);
        return 0;
      }
      await write(io.stderr, help);
      return 2;
    }
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options: { ...GLOBAL_OPTIONS, ...command.options }, strict: true, allowPositionals: true });
    } catch (err) {
      // node's "Unknown option '--x'. To specify a positional argument starting with a '-', …"
      const message = (err as Error).message;
      const unknown = /^Unknown option '([^']+)'/.exec(message);
      throw new UsageError(unknown ? `unknown option '${unknown[1]}' for '${command.name}'` : message.split('\n')[0]!, helpCommand);
    }
    const values = parsed.values as Record<string, string | boolean | undefined>;
    if (values.help) {
      await write(io.stdout, help);
      return 0;
    }
    const args = parsed.positionals.slice(parsed.positionals.length - rest.length);
    if (args.length < command.args.min) throw new UsageError(`missing argument: ${command.usage}`, helpCommand);
    if (args.length > command.args.max) throw new UsageError(`unexpected argument '${args[command.args.max]}'`, helpCommand);

    const apiKey = (values['api-key'] as string | undefined) ?? io.env.CRAWL_API_KEY;
    const baseUrl = (values['base-url'] as string | undefined) ?? (io.env.CRAWL_BASE_URL || undefined);
    const projectId = (values.project as string | undefined) ?? (io.env.CRAWL_PROJECT_ID || undefined);
    const userAgent = `crawl-cli/${SDK_VERSION}`;
    let client: CrawlClient | undefined;
    let account: Promise<CrawlAccount> | undefined;
    const context: CommandContext = {
      // read as a command starts (its parameters' destructuring): only commands that use an API key need one
      get client() {
        if (!apiKey) throw new UsageError('no API key: set CRAWL_API_KEY or pass --api-key', helpCommand);
        return (client ??= new CrawlClient({ apiKey, baseUrl, autoIdempotency: true, userAgent }));
      },
      signIn() {
        const email = (values.email as string | undefined) ?? (io.env.CRAWL_EMAIL || undefined);
        const password = (values.password as string | undefined) ?? (io.env.CRAWL_PASSWORD || undefined);
        if (!email || !password)
          throw new UsageError('no sign-in: set CRAWL_EMAIL and CRAWL_PASSWORD or pass --email and --password', helpCommand);
        return (account ??= CrawlAccount.signIn({ baseUrl, email, password, userAgent }));
      },
      project() {
        if (!projectId) throw new UsageError('no project: set CRAWL_PROJECT_ID or pass --project', helpCommand);
        return projectId;
      },
      args,
      values,
      io,
    };
    try {
      return await command.run(context);
    } finally {
      // the session lives for this one command: end it on the server too
      if (account) await (await account.catch(() => undefined))?.signOut().catch(() => undefined);
    }
  } catch (err) {
    await write(io.stderr, formatError(err)).catch(() => undefined);
    return 2;
  }
}
