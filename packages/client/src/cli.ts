#!/usr/bin/env node
/** Entry point of the `crawl` command (bin). The command logic is in ./cli/. */
import { runCli } from './cli/run';

// `crawl export … | head`: the reader went away, which is not an error worth a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

// eslint-disable-next-line no-restricted-syntax -- the CLI's composition root: the one place that reads the environment
const env = process.env;

void runCli(process.argv.slice(2), { env, stdout: process.stdout, stderr: process.stderr }).then((code) => {
  process.exitCode = code;
});
