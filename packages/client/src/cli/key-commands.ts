import type { CreateApiKeyBody, KeyScope } from '../types';
import type { Command } from './commands';
import { json, UsageError, write } from './output';

const SCOPES: KeyScope[] = ['full', 'read'];
const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** The flags of the commands that sign in as a user (key management needs a console session, not an API key). */
const SIGN_IN_OPTIONS = { email: { type: 'string' }, password: { type: 'string' } } as const;
const SIGN_IN_HELP = `Signs in as a user for this one command and signs out after: --email and --password
(default: $CRAWL_EMAIL and $CRAWL_PASSWORD; prefer the variables, flags show in ps). No API key
is needed and no session is kept on disk.`;

/** Key commands print the secret of a new key once: on stdout (alone with --quiet), never anywhere else. */
const SECRET_NOTE = "the secret is shown only this once: store it now (it is 'secret' above)\n";

const meCommand: Command = {
  name: 'me',
  usage: 'crawl me',
  summary: 'print the API key in use: its id, label, scope, project, organization and owner',
  help: 'Prints {keyId, label, scope, projectId, organizationId, userId} as JSON. A revoked or expired key is an UNAUTHORIZED error.',
  options: {},
  args: { min: 0, max: 0 },
  async run({ client, io }) {
    await write(io.stdout, json(await client.me()));
    return 0;
  },
};

const keysList: Command = {
  name: 'keys list',
  usage: 'crawl keys list [--email EMAIL] [--password PASSWORD]',
  summary: "list the project's API keys, revoked ones included (one JSON object per line; never secrets)",
  help: `Owners and admins see every key of the project, developers the keys they created.

${SIGN_IN_HELP}`,
  options: { ...SIGN_IN_OPTIONS },
  args: { min: 0, max: 0 },
  async run({ signIn, project, io }) {
    const projectId = project();
    const account = await signIn();
    for (const key of await account.keys.list(projectId)) await write(io.stdout, `${JSON.stringify(key)}\n`);
    return 0;
  },
};

const keysCreate: Command = {
  name: 'keys create',
  usage: 'crawl keys create --label LABEL [--scope full|read] [--expires-at DATE] [--quiet]',
  summary: 'create an API key of the project and print it with its secret (shown this once)',
  help: `--scope read makes a key that may only read (GET); the default is full. --expires-at takes an ISO
date or timestamp within 5 years (default: no expiry). Prints the key with its 'secret' as JSON,
or only the secret with --quiet (e.g. CRAWL_API_KEY=$(crawl keys create --label ci -q)).

${SIGN_IN_HELP}`,
  options: {
    label: { type: 'string' },
    scope: { type: 'string' },
    'expires-at': { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
    ...SIGN_IN_OPTIONS,
  },
  args: { min: 0, max: 0 },
  async run({ signIn, project, values, io }) {
    const label = str(values.label);
    if (!label) throw new UsageError('--label is required', 'crawl keys create --help');
    const scope = str(values.scope);
    if (scope !== undefined && !SCOPES.includes(scope as KeyScope))
      throw new UsageError(`--scope must be one of ${SCOPES.join(', ')}`, 'crawl keys create --help');
    const body: CreateApiKeyBody = { label, ...(scope ? { scope: scope as KeyScope } : {}) };
    const expiresAt = str(values['expires-at']);
    if (expiresAt !== undefined) body.expiresAt = expiresAt;
    const projectId = project();
    const key = await (await signIn()).keys.create(projectId, body);
    await write(io.stdout, values.quiet ? `${key.secret}\n` : json(key));
    if (!values.quiet) await write(io.stderr, SECRET_NOTE);
    return 0;
  },
};

const keysRotate: Command = {
  name: 'keys rotate',
  usage: 'crawl keys rotate KEY_ID [--overlap SECONDS] [--quiet]',
  summary: 'replace an API key by a new one (printed with its secret, shown this once)',
  help: `The new key has the old one's label, scope and expiry. --overlap keeps the old key working that
many seconds (0 to 86400; default 0: it stops at once). Prints the new key with its 'secret' as
JSON, or only the secret with --quiet.

${SIGN_IN_HELP}`,
  options: { overlap: { type: 'string' }, quiet: { type: 'boolean', short: 'q' }, ...SIGN_IN_OPTIONS },
  args: { min: 1, max: 1 },
  async run({ signIn, args, values, io }) {
    const overlap = str(values.overlap);
    if (overlap !== undefined && (!/^\d+$/.test(overlap) || Number(overlap) > 86_400))
      throw new UsageError('--overlap must be a whole number of seconds from 0 to 86400', 'crawl keys rotate --help');
    const key = await (await signIn()).keys.rotate(args[0]!, overlap === undefined ? {} : { overlapSeconds: Number(overlap) });
    await write(io.stdout, values.quiet ? `${key.secret}\n` : json(key));
    if (!values.quiet) await write(io.stderr, SECRET_NOTE);
    return 0;
  },
};

const keysRevoke: Command = {
  name: 'keys revoke',
  usage: 'crawl keys revoke KEY_ID',
  summary: 'revoke an API key at once (prints nothing)',
  help: `The key stops working on every gateway at once. Revoking a revoked key changes nothing.

${SIGN_IN_HELP}`,
  options: { ...SIGN_IN_OPTIONS },
  args: { min: 1, max: 1 },
  async run({ signIn, args }) {
    await (await signIn()).keys.revoke(args[0]!);
    return 0;
  },
};

export const ME_COMMANDS: Command[] = [meCommand];
export const KEY_COMMANDS: Command[] = [keysList, keysCreate, keysRotate, keysRevoke];
