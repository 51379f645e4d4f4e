/**
 * Deployment files against the code they deploy (no Docker or cluster needed): Dockerfile,
 * docker-compose.yml, infra/ (kustomize base, components, overlays, Prometheus, Grafana).
 *
 * Everything is checked against facts read from the sources, so a change on either side that
 * breaks the other fails here: the environment variables each entry point reads
 * (services/*\/src/config.ts, packages/config/src/env.ts) and their validity (the services' own
 * zod loaders run on the deployed values), the HTTP paths and ports each process serves, and the
 * metric names the services register (prom-client constructors) for every PromQL expression.
 * When `kubectl`/`kustomize` or `docker compose` is installed, the rendered output is checked too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { parseEnv, postgresEnv } from '@crawl/config';
import { loadGatewayConfig } from '@crawl/gateway';
import { PARSE_PROCESS_NODE_FLAGS } from '@crawl/marketplace';
import { loadSchedulerConfig } from '@crawl/scheduler';
import { loadWebhooksConfig } from '@crawl/webhooks';
import { loadWorkerConfig } from '@crawl/worker';

const ROOT = path.resolve(__dirname, '../..');
const rel = (p: string) => path.relative(ROOT, p);
const read = (p: string) => readFileSync(path.join(ROOT, p), 'utf8');

type Obj = Record<string, any>;
type Env = Record<string, string>;

// ---------------------------------------------------------------------------------------------
// Facts from the sources
// ---------------------------------------------------------------------------------------------

function walk(dir: string, accept: (file: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full, accept));
    else if (accept(full)) out.push(full);
  }
  return out.sort();
}

const sourceFiles = (dir: string) =>
  walk(path.join(ROOT, dir), (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('test-support'));

/** The `{ ... }` after `start` (an index of an opening brace), braces balanced. */
function braceBody(src: string, open: number): string {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === '{') depth++;
    else if (src[i] === '}' && --depth === 0) return src.slice(open + 1, i);
  }
  throw new Error('unbalanced braces');
}

/** `export const xEnv = { KEY: ..., ...otherEnv }` blocks of one file: own keys and spreads. */
function envBlocks(src: string): Map<string, { keys: string[]; spreads: string[] }> {
  const blocks = new Map<string, { keys: string[]; spreads: string[] }>();
  for (const m of src.matchAll(/export const (\w+)\s*=\s*\{/g)) {
    const body = braceBody(src, m.index! + m[0].length - 1);
    blocks.set(m[1]!, {
      keys: [...body.matchAll(/^\s*([A-Z][A-Z0-9_]+)\s*:/gm)].map((k) => k[1]!),
      spreads: [...body.matchAll(/\.\.\.(\w+)/g)].map((s) => s[1]!),
    });
  }
  return blocks;
}

const sharedBlocks = envBlocks(read('packages/config/src/env.ts'));

function resolveBlock(name: string, local: Map<string, { keys: string[]; spreads: string[] }>): Set<string> {
  const block = local.get(name) ?? sharedBlocks.get(name);
  if (!block) throw new Error(`env block ${name} not found`);
  const keys = new Set(block.keys);
  for (const spread of block.spreads) for (const k of resolveBlock(spread, local)) keys.add(k);
  return keys;
}

/** What a `node <entry>` command is, and what it reads and serves. */
interface EntryPoint {
  entry: string;
  /** Environment variable names the process reads. */
  envNames: Set<string>;
  /** Reads MARKETPLACE_ORIGIN_<CODE> (a pattern, not a fixed name). */
  marketplaceOrigins: boolean;
  /** Validates an environment like the process does at start; returns the parsed config. */
  load: ((env: Env) => Obj) | null;
  /** The env variable holding its HTTP port, or null when it serves no HTTP. */
  portVar: 'PORT' | 'METRICS_PORT' | null;
  /** Paths its HTTP server answers. */
  paths: Set<string>;
  /** The env variable of the port serving /metrics (a side port, never the gateway's API port), or null. */
  metricsPortVar: 'METRICS_PORT' | null;
  /** Paths the metrics port answers. */
  metricsPaths: Set<string>;
  /** The node options its command line must give before the script (V8 reads them only at start). */
  nodeFlags: readonly string[];
}

// GET paths of the gateway's route table (`method: 'get', path: '/readyz'`)
const gatewayPaths = new Set(
  sourceFiles('services/gateway/src').flatMap((f) =>
    [...readFileSync(f, 'utf8').matchAll(/method:\s*'get',\s*path:\s*'([^']+)'/g)].map((m) => m[1]!),
  ),
);
const sidePaths = new Set([...read('packages/observability/src/service-main.ts').matchAll(/req\.url === '([^']+)'/g)].map((m) => m[1]!));
const simulatorPaths = new Set(
  sourceFiles('packages/simulator/src').flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/pathname === '([^']+)'/g)].map((m) => m[1]!)),
);

function serviceEntry(name: string, load: (env: Env) => Obj): EntryPoint {
  const configSrc = read(`services/${name}/src/config.ts`);
  const local = envBlocks(configSrc);
  const exported = [...local.keys()].find((k) => k.endsWith('Env'));
  if (!exported) throw new Error(`services/${name}/src/config.ts exports no env block`);
  const envNames = resolveBlock(exported, local);
  const main = read(`services/${name}/src/main.ts`);
  const sideServer = main.includes('serveMetrics(config.METRICS_PORT');
  const portVar = name === 'gateway' ? 'PORT' : sideServer ? 'METRICS_PORT' : null;
  return {
    entry: `services/${name}/dist/main.js`,
    envNames,
    marketplaceOrigins: configSrc.includes('marketplaceOriginsFromEnv('),
    load,
    portVar,
    paths: name === 'gateway' ? gatewayPaths : sideServer ? sidePaths : new Set(),
    metricsPortVar: sideServer ? 'METRICS_PORT' : null,
    metricsPaths: sideServer ? sidePaths : new Set(),
    nodeFlags: sourceFiles(`services/${name}/src`).some((f) => readFileSync(f, 'utf8').includes('createParsePool('))
      ? PARSE_PROCESS_NODE_FLAGS
      : [],
  };
}

function scriptEntry(entry: string, load: ((env: Env) => Obj) | null, paths: Set<string> = new Set()): EntryPoint {
  const src = read(entry.replace('/dist/', '/src/').replace(/\.js$/, '.ts'));
  const schema = /parseEnv(?:OrExit)?\((\w+)/.exec(src)?.[1];
  return {
    entry,
    envNames: schema ? resolveBlock(schema, new Map()) : new Set(),
    marketplaceOrigins: false,
    load,
    portVar: null,
    paths,
    metricsPortVar: null,
    metricsPaths: new Set(),
    nodeFlags: [],
  };
}

const ENTRIES = new Map<string, EntryPoint>(
  [
    serviceEntry('gateway', (env) => loadGatewayConfig(env)),
    serviceEntry('worker', (env) => loadWorkerConfig(env)),
    serviceEntry('webhooks', (env) => loadWebhooksConfig(env)),
    serviceEntry('scheduler', (env) => loadSchedulerConfig(env)),
    scriptEntry('packages/db/dist/migrate-main.js', (env) => parseEnv(postgresEnv, env)),
    scriptEntry('packages/cli/dist/main.js', (env) => parseEnv(postgresEnv, env)),
    scriptEntry('packages/simulator/dist/main.js', null, simulatorPaths),
  ].map((e) => [e.entry, e]),
);

/** Variables any Node process may be given (read by node itself, not by the services). */
const RUNTIME_ENV = new Set(['NODE_ENV', 'NODE_OPTIONS']);

function unknownEnvNames(entry: EntryPoint, names: Iterable<string>): string[] {
  return [...names].filter(
    (n) =>
      !entry.envNames.has(n) && !RUNTIME_ENV.has(n) && !(entry.marketplaceOrigins && /^MARKETPLACE_ORIGIN_(OVERRIDE|[A-Z]{2})$/.test(n)),
  );
}

/** The entry point a `node [options] <script> [args]` command runs; its options must be the entry's own. */
function entryOf(args: unknown, where: string): EntryPoint {
  expect(Array.isArray(args)).toBe(true);
  const words = args as string[];
  let at = 0;
  while (words[at]?.startsWith('-')) at++;
  const script = words[at]!;
  const entry = ENTRIES.get(script);
  if (!entry) throw new Error(`${where}: runs ${script}, not a known entry point (${[...ENTRIES.keys()].join(', ')})`);
  expect(existsSync(path.join(ROOT, script.replace('/dist/', '/src/').replace(/\.js$/, '.ts')))).toBe(true);
  expect([where, words.slice(0, at)]).toEqual([where, [...entry.nodeFlags]]);
  return entry;
}

/** Metric names the services export: prom-client constructors, histogram series included. */
const METRICS = (() => {
  const names = new Set<string>();
  for (const file of [...sourceFiles('services'), ...sourceFiles('packages')]) {
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/new (Counter|Gauge|Histogram|Summary)\(\{[^]*?name: '([a-zA-Z_:][a-zA-Z0-9_:]*)'/g)) {
      const [, type, name] = m;
      names.add(name!);
      if (type === 'Histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name! + s);
      if (type === 'Summary') for (const s of ['_sum', '_count']) names.add(name! + s);
    }
  }
  return names;
})();
/** prom-client's collectDefaultMetrics, registered by every service's registry. */
const isDefaultMetric = (name: string) => /^(process|nodejs)_[a-z0-9_]+$/.test(name);

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/** Metric names of a PromQL expression: identifiers that are not functions, keywords or labels. */
function promqlMetrics(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+/g, ' ')
    .replace(/\b\d+(\.\d+)?(e[+-]?\d+)?\b/gi, ' ');
  const out: string[] = [];
  for (const m of stripped.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    if (m[2] || PROMQL_WORDS.has(m[1]!.toLowerCase())) continue;
    out.push(m[1]!);
  }
  return out;
}

function expectKnownMetrics(expr: string, where: string): string[] {
  const names = promqlMetrics(expr);
  const unknown = names.filter((n) => !METRICS.has(n) && !isDefaultMetric(n));
  if (unknown.length) throw new Error(`${where}: unknown metric(s) ${unknown.join(', ')} in ${expr}`);
  expect(names.length).toBeGreaterThan(0);
  return names;
}

// ---------------------------------------------------------------------------------------------
// The deployment files
// ---------------------------------------------------------------------------------------------

function parseYaml(text: string, where: string): Obj[] {
  const docs = parseAllDocuments(text, { merge: true });
  if (!Array.isArray(docs)) return [];
  return docs
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${where}: ${doc.errors.map((e) => e.message).join('; ')}`);
      return doc.toJS({ maxAliasCount: 1000 }) as Obj | null;
    })
    .filter((d): d is Obj => d !== null && typeof d === 'object');
}

const INFRA = path.join(ROOT, 'infra');
const YAML_FILES = walk(INFRA, (f) => /\.ya?ml$/.test(f));
const PARSED = new Map(YAML_FILES.map((f) => [f, parseYaml(readFileSync(f, 'utf8'), rel(f))]));
const KUSTOMIZATIONS = YAML_FILES.filter((f) => path.basename(f) === 'kustomization.yaml');
const isKustomization = (d: Obj) => d.kind === 'Kustomization' || d.kind === 'Component';
const isK8sObject = (d: Obj) => typeof d.apiVersion === 'string' && typeof d.kind === 'string' && !isKustomization(d);

/** ConfigMaps generated by a kustomization's configMapGenerator (literals), merged like kustomize. */
function generatedConfigMaps(kustomizationFile: string, into = new Map<string, Env>()): Map<string, Env> {
  const k = PARSED.get(kustomizationFile)![0]!;
  for (const res of [...(k.resources ?? []), ...(k.components ?? [])] as string[]) {
    const target = path.resolve(path.dirname(kustomizationFile), res, 'kustomization.yaml');
    if (PARSED.has(target)) generatedConfigMaps(target, into);
  }
  for (const gen of (k.configMapGenerator ?? []) as Obj[]) {
    expect(gen.envs ?? gen.files ?? undefined).toBeUndefined(); // literals keep every value visible here
    const data = Object.fromEntries(
      ((gen.literals ?? []) as string[]).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    into.set(gen.name, gen.behavior === 'merge' ? { ...into.get(gen.name), ...data } : data);
  }
  return into;
}

/** Valid stand-ins for Secret values, so that the services' loaders can run on a pod's env. */
const SECRET_STANDINS: Env = {
  DATABASE_URL: 'postgres://crawl:secret@postgres.internal:5432/crawl',
  REDIS_URL: 'redis://:secret@redis.internal:6379',
  SECRETS_KEY: 'ab'.repeat(32),
  PROXY_URLS: 'http://user:pass@proxy.internal:8080',
  SMTP_URL: 'smtps://crawl:secret@smtp.internal:465',
};

const MIB: Record<string, number> = { Ki: 1 / 1024, Mi: 1, Gi: 1024, K: 1e3 / 2 ** 20, M: 1e6 / 2 ** 20, G: 1e9 / 2 ** 20 };
const mebibytes = (q: string) => {
  const m = /^(\d+(?:\.\d+)?)([KMG]i?)?$/.exec(String(q));
  if (!m) throw new Error(`memory quantity ${q}`);
  return Number(m[1]) * (m[2] ? MIB[m[2]]! : 1 / 2 ** 20);
};

/** A container's environment (names and, where known, values) and the entry it runs. */
function containerEnv(c: Obj, configMaps: Map<string, Env>, where: string): Env {
  const env: Env = {};
  for (const from of (c.envFrom ?? []) as Obj[]) {
    if (from.secretRef) throw new Error(`${where}: envFrom secretRef hides which variables it sets; use env[].valueFrom.secretKeyRef`);
    const name = from.configMapRef?.name as string;
    const data = configMaps.get(name);
    if (!data) throw new Error(`${where}: envFrom configMap ${name} is not generated by the kustomization`);
    Object.assign(env, data);
  }
  for (const e of (c.env ?? []) as Obj[]) {
    if (e.valueFrom?.secretKeyRef) {
      const standin = SECRET_STANDINS[e.name];
      if (standin === undefined) throw new Error(`${where}: no stand-in value for secret variable ${e.name}`);
      if (e.valueFrom.secretKeyRef.optional) continue;
      env[e.name] = standin;
    } else if (e.valueFrom?.configMapKeyRef) {
      env[e.name] = configMaps.get(e.valueFrom.configMapKeyRef.name)?.[e.valueFrom.configMapKeyRef.key] ?? '';
    } else {
      env[e.name] = String(e.value ?? '');
    }
  }
  return env;
}

const PROBES_OMITTED = 'infra.crawl-data-service/probes-omitted';

/** The checks on a set of Kubernetes objects (raw base files, or kustomize's rendered output). */
function checkKubernetes(objects: Obj[], configMaps: Map<string, Env>, label: string): void {
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['gateway', 'scheduler', 'webhooks', 'worker']);
  const served = new Map<string, EntryPoint>();

  for (const d of deployments) {
    const where = `${label} Deployment ${d.metadata.name}`;
    const pod = d.spec.template;
    for (const [k, v] of Object.entries(d.spec.selector.matchLabels as Env)) expect([where, pod.metadata.labels[k]]).toEqual([where, v]);
    expect(pod.spec.securityContext?.runAsNonRoot).toBe(true);

    for (const init of (pod.spec.initContainers ?? []) as Obj[]) {
      const entry = entryOf(init.args, `${where} init ${init.name}`);
      expect(init.image).toBeTruthy();
      expect(init.resources?.requests?.memory && init.resources?.limits?.memory).toBeTruthy();
      expect(
        unknownEnvNames(
          entry,
          ((init.env ?? []) as Obj[]).map((e) => e.name),
        ),
      ).toEqual([]);
    }

    expect(pod.spec.containers).toHaveLength(1);
    const c = pod.spec.containers[0] as Obj;
    const entry = entryOf(c.args, where);
    served.set(d.metadata.name, entry);
    expect([where, typeof c.image === 'string' && c.image.length > 0]).toEqual([where, true]);
    for (const kind of ['requests', 'limits']) {
      for (const res of ['cpu', 'memory'])
        expect([where, kind, res, Boolean(c.resources?.[kind]?.[res])]).toEqual([where, kind, res, true]);
    }
    expect(mebibytes(c.resources.requests.memory)).toBeLessThanOrEqual(mebibytes(c.resources.limits.memory));

    const env = containerEnv(c, configMaps, where);
    expect([where, unknownEnvNames(entry, Object.keys(env))]).toEqual([where, []]);
    // The deployed values start the service: its own zod schema accepts them.
    const config = entry.load!({ ...env });
    // A worker's drain is bounded by its SHUTDOWN_GRACE_MS: the pod's grace covers it, with margin.
    if (config.SHUTDOWN_GRACE_MS !== undefined) {
      const graceMs = Number(pod.spec.terminationGracePeriodSeconds) * 1000;
      expect([where, graceMs >= Number(config.SHUTDOWN_GRACE_MS) + 5_000]).toEqual([where, true]);
    }
    const heap = /--max-old-space-size=(\d+)/.exec(env.NODE_OPTIONS ?? '')?.[1];
    if (heap) expect(Number(heap)).toBeLessThan(mebibytes(c.resources.limits.memory));

    const ports = new Map<string, number>(((c.ports ?? []) as Obj[]).map((p) => [p.name, p.containerPort]));
    const portOf = (p: string | number) => (typeof p === 'number' ? p : ports.get(p));

    if (entry.portVar === null) {
      // Documented exception: a process without any HTTP server cannot have HTTP probes.
      expect([where, typeof d.metadata.annotations?.[PROBES_OMITTED]]).toEqual([where, 'string']);
      expect(c.readinessProbe ?? c.livenessProbe ?? c.startupProbe ?? null).toBeNull();
      expect(pod.metadata.annotations?.['prometheus.io/scrape']).toBeUndefined();
      expect(c.ports ?? []).toEqual([]);
      continue;
    }
    const port = Number(config[entry.portVar]);
    expect([where, entry.portVar, port > 0]).toEqual([where, entry.portVar, true]);
    expect([...ports.values()]).toContain(port);
    expect(d.metadata.annotations?.[PROBES_OMITTED]).toBeUndefined();
    for (const probe of ['readinessProbe', 'livenessProbe']) expect([where, probe, Boolean(c[probe])]).toEqual([where, probe, true]);
    for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
      const get = c[probe]?.httpGet;
      if (!c[probe]) continue;
      expect([where, probe, 'httpGet', Boolean(get)]).toEqual([where, probe, 'httpGet', true]);
      expect([where, probe, portOf(get.port)]).toEqual([where, probe, port]);
      expect([where, probe, entry.paths.has(get.path)]).toEqual([where, probe, true]);
    }
    // Liveness must not depend on Postgres/Redis (/readyz does): an outage would restart every pod.
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    if (d.metadata.name === 'gateway') expect(c.readinessProbe.httpGet.path).toBe('/readyz');

    const annotations = pod.metadata.annotations ?? {};
    expect([where, annotations['prometheus.io/scrape']]).toEqual([where, 'true']);
    expect([where, entry.metricsPortVar]).toEqual([where, 'METRICS_PORT']);
    const metricsPort = Number(config[entry.metricsPortVar!]);
    expect([where, Number(annotations['prometheus.io/port'])]).toEqual([where, metricsPort]);
    expect([...ports.values()]).toContain(metricsPort);
    expect(entry.metricsPaths.has(annotations['prometheus.io/path'])).toBe(true);
    // The gateway's metrics are never on its API port.
    if (entry.portVar === 'PORT') expect([where, metricsPort === port]).toEqual([where, false]);
  }

  // Init containers and Jobs run known entries too, with only the variables those read.
  for (const job of objects.filter((o) => o.kind === 'Job')) {
    const c = job.spec.template.spec.containers[0] as Obj;
    const entry = entryOf(c.args, `${label} Job ${job.metadata.name}`);
    expect(['Never', 'OnFailure']).toContain(job.spec.template.spec.restartPolicy);
    expect(c.image && c.resources?.requests && c.resources?.limits).toBeTruthy();
    const env = containerEnv(c, configMaps, `Job ${job.metadata.name}`);
    expect(unknownEnvNames(entry, Object.keys(env))).toEqual([]);
    entry.load?.(env);
  }

  const podsMatching = (selector: Env) =>
    deployments.filter((d) => Object.entries(selector).every(([k, v]) => d.spec.template.metadata.labels[k] === v));

  for (const svc of objects.filter((o) => o.kind === 'Service')) {
    const [target] = podsMatching(svc.spec.selector);
    expect([`Service ${svc.metadata.name}`, podsMatching(svc.spec.selector).length]).toEqual([`Service ${svc.metadata.name}`, 1]);
    const c = target!.spec.template.spec.containers[0];
    for (const p of svc.spec.ports as Obj[]) {
      const port = typeof p.targetPort === 'number' ? p.targetPort : c.ports.find((cp: Obj) => cp.name === p.targetPort)?.containerPort;
      expect(port).toBe(Number(configFor(target!, c, configMaps)[served.get(target!.metadata.name)!.portVar!]));
    }
  }

  const pdbs = objects.filter((o) => o.kind === 'PodDisruptionBudget');
  for (const d of deployments) {
    const covering = pdbs.filter((p) =>
      Object.entries(p.spec.selector.matchLabels as Env).every(([k, v]) => d.spec.template.metadata.labels[k] === v),
    );
    expect([`PDB for ${d.metadata.name}`, covering.length]).toEqual([`PDB for ${d.metadata.name}`, 1]);
  }

  // Autoscalers target an existing Deployment that leaves its replica count to them.
  for (const scaler of objects.filter((o) => o.kind === 'ScaledObject' || o.kind === 'HorizontalPodAutoscaler')) {
    const target = deployments.find((d) => d.metadata.name === scaler.spec.scaleTargetRef.name);
    expect(target).toBeDefined();
    expect(target!.spec.replicas).toBeUndefined();
  }
}

function configFor(d: Obj, c: Obj, configMaps: Map<string, Env>): Obj {
  return entryOf(c.args, d.metadata.name).load!(containerEnv(c, configMaps, d.metadata.name));
}

// ---------------------------------------------------------------------------------------------

describe('source facts the checks rely on', () => {
  it('finds every entry point, its variables, paths and the exported metrics', () => {
    const gateway = ENTRIES.get('services/gateway/dist/main.js')!;
    expect([...gateway.envNames]).toEqual(expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'QUEUE_PREFIX', 'PORT', 'SECRETS_KEY']));
    expect(ENTRIES.get('services/worker/dist/main.js')!.envNames.has('METRICS_PORT')).toBe(true);
    expect(ENTRIES.get('services/worker/dist/main.js')!.marketplaceOrigins).toBe(true);
    expect(ENTRIES.get('services/scheduler/dist/main.js')!.portVar).toBeNull();
    expect([...ENTRIES.get('packages/db/dist/migrate-main.js')!.envNames].sort()).toEqual(['DATABASE_POOL_SIZE', 'DATABASE_URL']);
    expect([...gatewayPaths]).toEqual(expect.arrayContaining(['/healthz', '/readyz']));
    expect(gatewayPaths.has('/metrics')).toBe(false);
    expect(ENTRIES.get('services/gateway/dist/main.js')!.metricsPortVar).toBe('METRICS_PORT');
    expect([...sidePaths].sort()).toEqual(['/healthz', '/metrics']);
    expect(simulatorPaths.has('/__sim/health')).toBe(true);
    // The brute-force reading of the brief (every `KEY:` in the config files) adds nothing unknown.
    const union = new Set([...ENTRIES.values()].flatMap((e) => [...e.envNames]));
    for (const file of [
      'packages/config/src/env.ts',
      ...['gateway', 'worker', 'webhooks', 'scheduler'].map((s) => `services/${s}/src/config.ts`),
    ]) {
      for (const m of read(file).matchAll(/^\s*([A-Z][A-Z0-9_]+):/gm)) expect([file, union.has(m[1]!)]).toEqual([file, true]);
    }
    for (const name of [
      'http_requests_total',
      'http_request_duration_seconds_bucket',
      'queue_jobs',
      'crawl_targets_total',
      'crawl_target_duration_seconds_bucket',
      'queue_task_duration_seconds_count',
      'webhook_attempts_total',
      'webhook_attempt_duration_seconds_bucket',
    ]) {
      expect([name, METRICS.has(name)]).toEqual([name, true]);
    }
    expect(
      promqlMetrics(
        'sum by (le, route) (rate(http_request_duration_seconds_bucket{route!~"/x"}[$__rate_interval])) / clamp_min(x_total, 1e-9) unless on(a) up',
      ),
    ).toEqual(['http_request_duration_seconds_bucket', 'x_total', 'up']);
  });
});

describe('Dockerfile and .dockerignore', () => {
  const dockerfile = read('Dockerfile');
  const stages = [...dockerfile.matchAll(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/gim)].map((m) => m[1]);

  it('builds with pnpm from npm on node:20-bookworm-slim and runs as non-root', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages.every((s) => s === '${NODE_IMAGE}')).toBe(true);
    const ciPnpm = /PNPM_VERSION=(\S+)/.exec(read('.ci/run'))?.[1];
    expect(dockerfile).toContain(`ARG PNPM_VERSION=${ciPnpm}`);
    expect(dockerfile).toMatch(/npm install -g "pnpm@\$\{PNPM_VERSION\}"/);
    expect(dockerfile).not.toMatch(/corepack\s+(enable|prepare)/);
    expect(dockerfile).toMatch(/pnpm install --frozen-lockfile/);
    expect(dockerfile).toMatch(/pnpm build/);
    expect(dockerfile).toMatch(/--prod/);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).toMatch(/^ENV NODE_ENV=production$/m);
    expect(runtime).toMatch(/^USER (?!0\b|root\b)\S+/m);
    expect(runtime).toMatch(/^ENTRYPOINT \["node"\]$/m);
    expect(runtime).toMatch(/^HEALTHCHECK /m);
    const cmd = JSON.parse(/^CMD (.+)$/m.exec(runtime)![1]!) as string[];
    expect(ENTRIES.has(cmd[0]!)).toBe(true);
  });

  it('puts every entry point the deployments run into the image', () => {
    for (const entry of ENTRIES.keys()) expect([entry, dockerfile.includes(`test -f /out/${entry}`)]).toEqual([entry, true]);
  });

  it('keeps dependencies, build output, git data and secrets out of the build context', () => {
    const ignore = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const p of ['**/node_modules', '**/dist', '.git', '**/coverage', '**/.env']) expect(ignore).toContain(p);
    // The frozen install needs every workspace package.json, and the build needs bench's sources.
    for (const p of ['packages', 'services', 'bench', 'e2e', 'pnpm-lock.yaml', '*.json']) expect(ignore).not.toContain(p);
  });
});

describe('docker-compose.yml', () => {
  const compose = parseYaml(read('docker-compose.yml'), 'docker-compose.yml')[0]!;
  const services = compose.services as Record<string, Obj>;
  const appImage = services.gateway!.image as string;
  const app = Object.entries(services).filter(([, s]) => s.image === appImage);

  /** `${VAR:-default}` as compose does with VAR unset (plus overrides). */
  const interpolate = (value: unknown, overrides: Env = {}) =>
    String(value).replace(/\$\{(\w+)(?::?[-?]([^}]*))?\}/g, (_m, name: string, def?: string) => overrides[name] ?? def ?? '');

  it('has every service, the infrastructure with volumes and healthchecks', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'migrate', 'gateway', 'worker', 'webhooks', 'scheduler', 'simulator']),
    );
    expect(services.postgres!.image).toBe('postgres:16-alpine');
    expect(services.redis!.image).toBe('redis:7-alpine');
    expect(services.postgres!.healthcheck.test.join(' ')).toContain('pg_isready');
    expect(services.redis!.healthcheck.test.join(' ')).toContain('redis-cli ping');
    expect(services.postgres!.volumes.join(' ')).toContain('/var/lib/postgresql/data');
    expect(services.redis!.command.join(' ')).toContain('noeviction');
    for (const name of ['postgres', 'redis']) expect(services[name]!.ports).toBeUndefined();
    for (const [, s] of app) expect(s.build).toBeDefined();
    expect(app.map(([n]) => n).sort()).toEqual(['gateway', 'migrate', 'scheduler', 'simulator', 'webhooks', 'worker']);
  });

  it('orders start-up: migrate after Postgres, services after a successful migration', () => {
    expect(services.migrate!.depends_on.postgres.condition).toBe('service_healthy');
    expect(services.migrate!.restart).toBe('no');
    for (const name of ['gateway', 'worker', 'webhooks', 'scheduler']) {
      expect([name, services[name]!.depends_on.migrate.condition]).toEqual([name, 'service_completed_successfully']);
      expect([name, services[name]!.depends_on.redis.condition]).toEqual([name, 'service_healthy']);
    }
    expect(services.simulator!.profiles).toEqual(['simulator']);
  });

  it('lets the worker scale: no container_name, no host port', () => {
    expect(services.worker!.container_name).toBeUndefined();
    expect(services.worker!.ports).toBeUndefined();
    for (const [name, s] of app) expect([name, s.container_name]).toEqual([name, undefined]);
  });

  it('gives each process only variables it reads, with values it accepts, and health checks on its real port and paths', () => {
    for (const overrides of [
      { SECRETS_KEY: 'cd'.repeat(32) },
      { MARKETPLACE_ORIGIN_OVERRIDE: 'http://simulator:9100', SECRETS_KEY: 'ab'.repeat(32), LOG_LEVEL: 'debug' },
    ] as Env[]) {
      for (const [name, s] of app) {
        const entry = entryOf(s.command, `compose ${name}`);
        const env: Env = Object.fromEntries(Object.entries((s.environment ?? {}) as Obj).map(([k, v]) => [k, interpolate(v, overrides)]));
        expect([name, unknownEnvNames(entry, Object.keys(env))]).toEqual([name, []]);
        const config = entry.load ? entry.load(env) : {};
        const hc = s.healthcheck as Obj;
        if (hc?.disable) {
          // Only a process without an HTTP server may go unchecked.
          expect([name, entry.portVar ?? (entry.paths.size ? 'http' : null)]).toEqual([name, null]);
          continue;
        }
        expect([name, Array.isArray(hc?.test)]).toEqual([name, true]);
        const url = /http:\/\/127\.0\.0\.1:(\d+)(\/[^'"]*)/.exec(hc.test.join(' '));
        expect([name, Boolean(url)]).toEqual([name, true]);
        const port = entry.portVar
          ? Number(config[entry.portVar])
          : Number((s.command as string[])[(s.command as string[]).indexOf('--port') + 1]);
        expect([name, Number(url![1])]).toEqual([name, port]);
        expect([name, entry.paths.has(url![2]!)]).toEqual([name, true]);
      }
    }
    expect(interpolate(services.gateway!.healthcheck.test.join(' '))).toContain('/readyz');
    // gateway and webhooks must share SECRETS_KEY
    expect(services.gateway!.environment.SECRETS_KEY).toBe(services.webhooks!.environment.SECRETS_KEY);
  });

  it('ships no usable SECRETS_KEY: without one set, compose refuses (`:?`) and the services would too', () => {
    for (const name of ['gateway', 'webhooks']) {
      expect([name, services[name]!.environment.SECRETS_KEY]).toEqual([
        name,
        expect.stringMatching(/^\$\{SECRETS_KEY:\?[^}]*openssl rand -hex 32\)?\}$/),
      ]);
    }
  });

  it('mounts only files that exist', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const v of (s.volumes ?? []) as string[]) {
        if (!v.startsWith('./')) continue;
        expect([name, v, existsSync(path.join(ROOT, v.split(':')[0]!))]).toEqual([name, v, true]);
      }
    }
  });

  it('is valid for `docker compose config` when Docker Compose is installed', () => {
    const candidates: string[][] = [['docker', 'compose'], ['docker-compose']];
    const cli = candidates.find(([cmd, ...args]) => spawnSync(cmd!, [...args, 'version'], { stdio: 'ignore' }).status === 0);
    if (!cli) {
      console.info('docker compose / docker-compose not installed: skipped `config -q` (the structure was checked above)');
      return;
    }
    const [cmd, ...args] = cli;
    const composeArgs = [...args, '-f', 'docker-compose.yml', '--profile', 'simulator', '--profile', 'observability', 'config', '-q'];
    const withoutKey = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'SECRETS_KEY'));
    const refused = spawnSync(cmd!, composeArgs, { cwd: ROOT, encoding: 'utf8', env: withoutKey });
    expect([refused.status === 0, refused.stderr]).toEqual([false, expect.stringContaining('SECRETS_KEY')]);
    const run = spawnSync(cmd!, composeArgs, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, SECRETS_KEY: 'ab'.repeat(32) } });
    if (run.stderr) console.info(`compose config: ${run.stderr}`);
    expect([run.status, run.stderr]).toEqual([0, run.status === 0 ? run.stderr : '']);
  });
});

describe('infra/ (kustomize)', () => {
  it('parses every YAML manifest', () => {
    expect(YAML_FILES.length).toBeGreaterThan(10);
    expect(KUSTOMIZATIONS.map(rel).sort()).toEqual(
      expect.arrayContaining([
        'infra/base/kustomization.yaml',
        'infra/overlays/example/kustomization.yaml',
        'infra/components/keda-worker-autoscaling/kustomization.yaml',
      ]),
    );
  });

  it('references only files that exist, and lists every manifest of its folder', () => {
    for (const file of KUSTOMIZATIONS) {
      const k = PARSED.get(file)![0]!;
      const dir = path.dirname(file);
      expect([rel(file), isKustomization(k)]).toEqual([rel(file), true]);
      for (const res of (k.resources ?? []) as string[]) {
        const target = path.resolve(dir, res);
        const ok = existsSync(target) && (statSync(target).isFile() || existsSync(path.join(target, 'kustomization.yaml')));
        expect([rel(file), res, ok]).toEqual([rel(file), res, true]);
      }
      for (const comp of (k.components ?? []) as string[]) {
        const target = path.resolve(dir, comp, 'kustomization.yaml');
        expect([rel(file), comp, existsSync(target) && PARSED.get(target)?.[0]?.kind]).toEqual([rel(file), comp, 'Component']);
      }
      for (const patch of (k.patches ?? []) as Obj[]) if (patch.path) expect(existsSync(path.resolve(dir, patch.path))).toBe(true);
      // No orphan manifest: each one in the folder is used (examples apart).
      const listed = new Set(((k.resources ?? []) as string[]).map((r) => path.resolve(dir, r)));
      for (const f of readdirSync(dir)) {
        if (!/\.ya?ml$/.test(f) || f === 'kustomization.yaml' || f.includes('.example.')) continue;
        expect([rel(path.join(dir, f)), listed.has(path.join(dir, f))]).toEqual([rel(path.join(dir, f)), true]);
      }
    }
  });

  it('base: deployments with images, resources, probes on served paths and ports, known variables', () => {
    const base = path.join(INFRA, 'base');
    const files = (PARSED.get(path.join(base, 'kustomization.yaml'))![0]!.resources as string[]).map((r) => path.join(base, r));
    const objects = files.flatMap((f) => PARSED.get(f)!).filter(isK8sObject);
    checkKubernetes(objects, generatedConfigMaps(path.join(base, 'kustomization.yaml')), 'base');
    // Secrets are referenced, never shipped in the base.
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(objects.filter((o) => o.kind === 'Service').map((s) => s.metadata.name)).toEqual(['gateway']);
    expect(objects.filter((o) => o.kind === 'Job').map((j) => j.metadata.name)).toEqual(['migrate']);
  });

  it('every object has a kind, a name and labels of the app', () => {
    for (const [file, docs] of PARSED) {
      for (const o of docs.filter(isK8sObject)) {
        expect([rel(file), typeof o.metadata?.name]).toEqual([rel(file), 'string']);
        if (o.kind !== 'Namespace' && o.kind !== 'ServiceAccount' && o.kind !== 'Secret') {
          expect([rel(file), o.kind, o.metadata.labels?.['app.kubernetes.io/name']]).toEqual([rel(file), o.kind, 'crawl-data-service']);
        }
      }
    }
  });

  it('autoscalers follow the waiting crawl work (crawl_backlog_targets, from Postgres), not the windowed queue', () => {
    const scaled = [...PARSED.values()].flat().filter((o) => o.kind === 'ScaledObject');
    expect(scaled).toHaveLength(1);
    const trigger = scaled[0]!.spec.triggers[0];
    expect(trigger.type).toBe('prometheus');
    expect(expectKnownMetrics(trigger.metadata.query, 'ScaledObject')).toEqual(['crawl_backlog_targets']);
    expect(trigger.metadata.threshold).toBe('3000');
    const hpas = [...PARSED.values()].flat().filter((o) => o.kind === 'HorizontalPodAutoscaler');
    expect(hpas).toHaveLength(1);
    // Either component asks for one pod per minute of one pod's work (infra/README.md "Capacity").
    expect(hpas[0]!.spec.metrics[0].external.target.averageValue).toBe(trigger.metadata.threshold);
    // The Deployment they scale leaves its replica count to them (an apply would reset it).
    const baseDeployments = [...PARSED.entries()]
      .filter(([f]) => f.startsWith(path.join(INFRA, 'base')))
      .flatMap(([, d]) => d)
      .filter((o) => o.kind === 'Deployment');
    for (const scaler of [...scaled, ...hpas]) {
      const target = baseDeployments.find((d) => d.metadata.name === scaler.spec.scaleTargetRef.name);
      expect([scaler.kind, target?.metadata.name, target?.spec.replicas]).toEqual([
        scaler.kind,
        scaler.spec.scaleTargetRef.name,
        undefined,
      ]);
    }
    // Queries patched in by overlays too.
    for (const file of KUSTOMIZATIONS) {
      for (const patch of (PARSED.get(file)![0]!.patches ?? []) as Obj[]) {
        if (typeof patch.patch !== 'string') continue;
        for (const op of parseYaml(patch.patch, rel(file))[0] as unknown as Obj[]) {
          if (String(op.path).endsWith('/query')) expectKnownMetrics(op.value, `${rel(file)} patch`);
        }
      }
    }
  });

  it('overlay example: namespace, pinned image tag, replicas not fighting the autoscaler', () => {
    const k = PARSED.get(path.join(INFRA, 'overlays/example/kustomization.yaml'))![0]!;
    expect(typeof k.namespace).toBe('string');
    expect(k.images[0].name).toBe('crawl-data-service');
    expect(k.images[0].newTag).toMatch(/^[\w.-]+$/);
    expect(k.images[0].newTag).not.toBe('latest');
    expect((k.replicas as Obj[]).map((r) => r.name)).not.toContain('worker');
    expect((k.replicas as Obj[]).length).toBeGreaterThan(0);
  });

  it('renders with kustomize when kubectl or kustomize is installed, and the output passes the same checks', () => {
    const tools: string[][] = [
      ['kubectl', 'kustomize'],
      ['kustomize', 'build'],
    ];
    const tool = tools.find(
      ([cmd]) => spawnSync(cmd!, ['version', ...(cmd === 'kubectl' ? ['--client'] : [])], { stdio: 'ignore' }).status === 0,
    );
    if (!tool) {
      console.info('kubectl / kustomize not installed: skipped rendering the kustomizations (their files were checked above)');
      return;
    }
    for (const dir of ['infra/base', 'infra/overlays/example']) {
      const [cmd, ...args] = tool;
      const run = spawnSync(cmd!, [...args, dir], { cwd: ROOT, encoding: 'utf8' });
      if (run.stderr) console.info(`${dir}: ${run.stderr}`);
      expect([dir, run.status, run.stderr]).toEqual([dir, 0, run.status === 0 ? run.stderr : '']);
      const objects = parseYaml(run.stdout, dir);
      const configMaps = new Map(objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name as string, o.data as Env]));
      checkKubernetes(objects, configMaps, dir);
      if (dir.includes('overlays')) {
        const namespace = PARSED.get(path.join(ROOT, dir, 'kustomization.yaml'))![0]!.namespace;
        for (const o of objects.filter((x) => x.kind !== 'Namespace'))
          expect([o.kind, o.metadata.name, o.metadata.namespace]).toEqual([o.kind, o.metadata.name, namespace]);
        for (const d of objects.filter((x) => x.kind === 'Deployment' || x.kind === 'Job')) {
          for (const c of [...(d.spec.template.spec.initContainers ?? []), ...d.spec.template.spec.containers])
            expect(c.image).toMatch(/^[^:]+\/[^:]+:[\w.-]+$/);
        }
        const so = objects.find((o) => o.kind === 'ScaledObject')!;
        expectKnownMetrics(so.spec.triggers[0].metadata.query, `${dir} ScaledObject`);
      }
    }
  });
});

describe('monitoring: Grafana dashboard and Prometheus rules', () => {
  const dashboard = JSON.parse(read('infra/grafana/crawl-data-service.json')) as Obj;
  const panels = (dashboard.panels as Obj[]).filter((p) => p.type !== 'row');
  const exprs = panels.flatMap((p) => (p.targets as Obj[]).map((t) => ({ panel: p.title as string, expr: t.expr as string })));

  it('is a schemaVersion 39 dashboard with a Prometheus data source variable used by every panel', () => {
    expect(dashboard.schemaVersion).toBe(39);
    expect(dashboard.uid).toBeTruthy();
    const dsVar = (dashboard.templating.list as Obj[]).find((v) => v.type === 'datasource');
    expect(dsVar).toMatchObject({ name: 'datasource', query: 'prometheus' });
    for (const p of panels) {
      expect([p.title, p.datasource.uid]).toEqual([p.title, '${datasource}']);
      for (const t of p.targets as Obj[]) expect([p.title, t.datasource.uid]).toEqual([p.title, '${datasource}']);
    }
    const ids = (dashboard.panels as Obj[]).map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('queries only metrics the services export, and shows every one of them', () => {
    const used = new Set<string>();
    for (const { panel, expr } of exprs) for (const m of expectKnownMetrics(expr, `panel "${panel}"`)) used.add(m);
    for (const v of dashboard.templating.list as Obj[]) {
      if (v.type === 'query') {
        const q = /label_values\((\w+)/.exec(v.definition)?.[1];
        expect(q && (METRICS.has(q) || isDefaultMetric(q))).toBeTruthy();
      }
    }
    const base = (n: string) => n.replace(/_(bucket|sum|count)$/, '');
    const shown = new Set([...used].map(base));
    const exported = new Set([...METRICS].map(base));
    for (const m of exported) expect([m, shown.has(m)]).toEqual([m, true]);
    for (const m of ['process_resident_memory_bytes', 'process_cpu_seconds_total']) expect(used.has(m)).toBe(true);
  });

  it('has the panels asked for', () => {
    const all = exprs.map((e) => e.expr).join('\n');
    for (const q of ['0.5', '0.95', '0.99'])
      expect(all).toContain(`histogram_quantile(${q}, sum by (le, route) (rate(http_request_duration_seconds_bucket`);
    expect(all).toMatch(/status=~"4\.\.\|5\.\."/);
    expect(all).toMatch(/queue_jobs/);
    expect(all).toMatch(/sum by \(outcome\) \(rate\(crawl_targets_total/);
    expect(all).toMatch(/histogram_quantile\(0\.95, sum by \(le, outcome\) \(rate\(crawl_target_duration_seconds_bucket/);
    expect(all).toMatch(/webhook_attempts_total\{outcome="success"\}.*\/ sum\(rate\(webhook_attempts_total/);
  });

  it('alert rules parse and use only exported metrics', () => {
    const rules = parseYaml(read('infra/prometheus/alerts.yml'), 'alerts.yml')[0]!;
    const all = (rules.groups as Obj[]).flatMap((g) => g.rules as Obj[]);
    expect(all.length).toBeGreaterThan(3);
    for (const r of all) {
      expect(typeof r.alert).toBe('string');
      expectKnownMetrics(r.expr, `alert ${r.alert}`);
    }
  });

  it('the Prometheus config of the compose profile scrapes the ports the services serve on', () => {
    const prom = parseYaml(read('infra/prometheus/prometheus.compose.yml'), 'prometheus.compose.yml')[0]!;
    const compose = parseYaml(read('docker-compose.yml'), 'docker-compose.yml')[0]!.services as Record<string, Obj>;
    for (const job of prom.scrape_configs as Obj[]) {
      const sd = job.dns_sd_configs[0];
      const service = compose[sd.names[0]]!;
      const entry = entryOf(service.command, `scrape job ${job.job_name}`);
      const required = { SECRETS_KEY: 'ab'.repeat(32) } as Env; // the one variable without a default
      const env = {
        ...Object.fromEntries(
          Object.entries(service.environment as Obj).map(([k, v]) => [k, String(v).replace(/\$\{\w+:-([^}]*)\}/g, '$1')]),
        ),
        ...required,
      };
      expect([job.job_name, sd.port]).toEqual([job.job_name, Number(entry.load!(env)[entry.metricsPortVar!])]);
      expect(entry.metricsPaths.has(job.metrics_path)).toBe(true);
    }
  });
});
