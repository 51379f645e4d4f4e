'use strict';
/**
 * Runs a built entry point of this repository, building it first when it has never been built.
 *
 *   node scripts/build-on-first-use.cjs packages/cli/dist/main.js [args...]
 *
 * `pnpm --silent admin ...` and `pnpm exec crawl ...` run compiled files under dist/. On a fresh
 * clone, before `pnpm build`, those files do not exist and Node printed `Cannot find module
 * .../dist/...`. This builds the entry's TypeScript project (`tsc -b`, which also builds the
 * projects it references) with one line on stderr, then runs the entry in this same process, so
 * its stdout, exit code and signals are exactly those of `node <entry>`. When the entry exists
 * nothing is checked or built: an existing build is used as it is, like `node <entry>` would.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

/**
 * What to do for `entry`: run it, build its project first, or give up with one line. The project
 * is the nearest folder above `dist/` with a tsconfig.json (a package of this workspace).
 * `exists` is injectable so the decision can be tested without touching the disk.
 */
function planLaunch(entry, exists = fs.existsSync) {
  const file = path.resolve(entry);
  if (exists(file)) return { action: 'run', entry: file };
  const parts = file.split(path.sep);
  const dist = parts.lastIndexOf('dist');
  const project = dist > 0 ? parts.slice(0, dist).join(path.sep) : null;
  if (project && exists(path.join(project, 'tsconfig.json')) && exists(path.join(project, 'src'))) {
    return { action: 'build', entry: file, project };
  }
  return { action: 'missing', entry: file, message: `${entry} does not exist: run \`pnpm build\` first (from the repository root)` };
}

/** `tsc -b project` with its output kept unless it fails; returns whether it succeeded. */
function build(project, stderr = process.stderr) {
  let tsc;
  try {
    tsc = require.resolve('typescript/bin/tsc', { paths: [project, __dirname] });
  } catch {
    stderr.write('TypeScript is not installed: run `pnpm install` and then `pnpm build` first\n');
    return false;
  }
  stderr.write(`building ${path.relative(process.cwd(), project) || project} (first use, once; \`pnpm build\` builds everything)\n`);
  const result = spawnSync(process.execPath, [tsc, '-b', project], { encoding: 'utf8' });
  if (result.status === 0) return true;
  stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}build failed: run \`pnpm build\` to see why\n`);
  return false;
}

/** Builds when needed, then runs `entry` in this process with `args` as its command line. */
function launch(entry, args) {
  const plan = planLaunch(entry);
  if (plan.action === 'missing') {
    process.stderr.write(`${plan.message}\n`);
    process.exit(1);
  }
  if (plan.action === 'build' && (!build(plan.project) || !fs.existsSync(plan.entry))) process.exit(1);
  process.argv = [process.argv[0], plan.entry, ...args];
  require(plan.entry);
}

module.exports = { planLaunch, build, launch };

if (require.main === module) {
  const [entry, ...args] = process.argv.slice(2);
  if (!entry) {
    process.stderr.write('usage: node scripts/build-on-first-use.cjs <path to a dist/ entry> [args...]\n');
    process.exit(2);
  }
  launch(entry, args);
}
