#!/usr/bin/env node
/**
 * What `pnpm start` and `pnpm start:sim` run last (after the build and the migrations), in place
 * of the shell pnpm started (`exec`): it runs `services/all/dist/main.js` with the given
 * arguments, forwards SIGINT/SIGTERM/SIGHUP to it once, and exits with its exit code when it has
 * stopped. So pnpm, which waits for this process, returns only when the services have stopped.
 *
 * Why not `node services/all/dist/main.js` directly: without `exec`, pnpm's shell dies on the
 * signal and pnpm returns while node keeps running; with `exec` alone, Ctrl-C delivers SIGINT to
 * node twice (from the terminal to the whole process group, and forwarded by pnpm), and the
 * second one ends it at once, in the middle of its drain. The services therefore run in a
 * process group of their own, and only this launcher signals them.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('./dist/main.js', import.meta.url));
const child = spawn(process.execPath, [main, ...process.argv.slice(2)], {
  // stdin is not read by the services; a background process group reading the terminal would be
  // stopped. The IPC channel tells the services when this launcher is gone (even SIGKILLed), so
  // a detached group never outlives it.
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  detached: true,
});

let forwarded = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // Repeats are expected (the terminal's Ctrl-C and pnpm's copy of it); the services force-exit
    // on their own deadline if their drain hangs.
    if (forwarded || child.exitCode !== null) return;
    forwarded = true;
    child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  });
}

child.on('error', (err) => {
  process.stderr.write(`start: cannot run ${main}: ${err.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 1));
});
