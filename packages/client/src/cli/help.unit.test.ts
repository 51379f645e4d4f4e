import { PassThrough } from 'node:stream';
import { ALL_COMMANDS } from './commands';
import { runCli } from './run';

/** Runs the CLI in-process with no API key, capturing both streams. */
async function crawl(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const code = await runCli(argv, { stdout, stderr, env: {} });
  return { code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}

/** Both CLIs answer `--help` and `-h` with their commands and exit 0. */
it.each(['--help', '-h'])('`crawl %s` lists every command on stdout and exits 0, with no API key', async (flag) => {
  for (const argv of [[flag], ['help'], ['jobs', flag]]) {
    const res = await crawl(argv);
    expect({ argv, code: res.code, stderr: res.stderr }).toEqual({ argv, code: 0, stderr: '' });
    expect(res.stdout).toMatch(/^(crawl .*command-line client|Usage: crawl jobs)/);
  }
  const top = (await crawl([flag])).stdout;
  for (const command of ALL_COMMANDS) expect(top).toContain(command.name.replace(/^jobs /, ''));
  for (const command of ALL_COMMANDS) {
    const res = await crawl([...command.name.split(' '), flag]);
    expect({ command: command.name, code: res.code }).toEqual({ command: command.name, code: 0 });
    expect(res.stdout).toMatch(new RegExp(`^Usage: crawl ${command.name}`));
  }
});
