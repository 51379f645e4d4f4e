/**
 * Fault rule list: validation (rules also arrive as JSON over the control API) and the
 * per-request decision. The first rule that matches and passes its probability draw wins.
 */
import { createPrng } from './prng';
import type { Fault, FaultRule, RedirectStatus } from './types';

interface ActiveRule {
  rule: FaultRule;
  test: (target: string) => boolean;
  /** Applications left; Infinity when the rule has no `times`. */
  remaining: number;
}

const KINDS = new Set(['latency', 'status', 'captcha', 'signin', 'not_found', 'reset', 'hang', 'empty', 'rewrite', 'redirect']);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const REGEX_FORM = /^\/(.+)\/([dgimsuy]*)$/s;
const REGEX_META = /[\\^$.*+?()[\]{}|]/;

function fail(message: string): never {
  throw new TypeError(`invalid fault rule: ${message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validateFault(input: unknown): Fault {
  if (!isRecord(input) || typeof input.kind !== 'string' || !KINDS.has(input.kind)) {
    fail(`fault.kind must be one of ${[...KINDS].join(', ')}`);
  }
  switch (input.kind) {
    case 'latency': {
      const ms = input.ms;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) fail('latency needs ms >= 0');
      return { kind: 'latency', ms };
    }
    case 'status': {
      const status = input.status;
      if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
        fail('status needs an HTTP status 100..599');
      return { kind: 'status', status };
    }
    case 'rewrite': {
      const replace = input.replace;
      if (
        !Array.isArray(replace) ||
        !replace.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && p[0] !== '' && typeof p[1] === 'string')
      ) {
        fail('rewrite needs replace: [[from, to], ...] with non-empty strings');
      }
      return { kind: 'rewrite', replace: (replace as [string, string][]).map(([a, b]) => [a, b]) };
    }
    case 'redirect': {
      const { location, status } = input;
      // Sent as a header value, which node refuses (and HTTP forbids) outside printable ASCII.
      if (typeof location !== 'string' || !/^[\x20-\x7e]+$/.test(location)) fail('redirect needs a non-empty printable-ASCII location');
      if (status !== undefined && !(typeof status === 'number' && REDIRECT_STATUSES.has(status)))
        fail('redirect status must be 301, 302, 303, 307 or 308');
      return status === undefined ? { kind: 'redirect', location } : { kind: 'redirect', location, status: status as RedirectStatus };
    }
    default:
      return { kind: input.kind } as Fault;
  }
}

/** Checks a rule (e.g. parsed JSON) and returns a copy, so later mutation by the caller has no effect. */
export function validateRule(input: unknown): FaultRule {
  if (!isRecord(input)) fail('a rule must be an object');
  const rule: FaultRule = { fault: validateFault(input.fault) };
  if (input.match !== undefined) {
    if (typeof input.match !== 'string') fail('match must be a string');
    rule.match = input.match;
    compileMatch(input.match); // reject a bad regex now, not on the first request
  }
  if (input.times !== undefined) {
    if (typeof input.times !== 'number' || !Number.isInteger(input.times) || input.times < 0) fail('times must be an integer >= 0');
    rule.times = input.times;
  }
  if (input.probability !== undefined) {
    const p = input.probability;
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) fail('probability must be within 0..1');
    rule.probability = p;
  }
  return rule;
}

function compileMatch(match: string | undefined): (target: string) => boolean {
  if (match === undefined) return () => true;
  // '/dp/' is the most common rule and means the path segment, not the regex `dp`: a slashed
  // string is a regex only when it has flags or a regex metacharacter ('/\/dp\/B0.+/').
  const re = REGEX_FORM.exec(match);
  if (re && (re[2] !== '' || REGEX_META.test(re[1]!))) {
    let regex: RegExp;
    try {
      regex = new RegExp(re[1]!, re[2]!.replace(/[gy]/g, '')); // 'g'/'y' would make test() stateful
    } catch (err) {
      fail(`match ${match} is not a valid regular expression (${(err as Error).message})`);
    }
    return (target) => regex.test(target);
  }
  return (target) => target.includes(match);
}

export class FaultEngine {
  private rules: ActiveRule[] = [];
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = createPrng(seed);
  }

  /** Validates every rule before replacing anything, so a bad list leaves the old one active. */
  set(rules: readonly unknown[]): void {
    this.rules = rules.map((r) => this.activate(validateRule(r)));
  }

  add(rule: unknown): void {
    this.rules.push(this.activate(validateRule(rule)));
  }

  clear(): void {
    this.rules = [];
  }

  /** Rules as configured, with `times` showing what is left of it. */
  list(): FaultRule[] {
    return this.rules.map(({ rule, remaining }) => (Number.isFinite(remaining) ? { ...rule, times: remaining } : { ...rule }));
  }

  /**
   * The fault for this request, or null to serve normally. `times` counts applications, so a
   * rule with probability 0.5 and times 3 injects exactly 3 faults. The PRNG is drawn only for
   * rules with probability < 1, so adding a certain rule does not shift another rule's sequence.
   */
  pick(target: string): Fault | null {
    if (this.rules.length === 0) return null;
    for (const active of this.rules) {
      if (active.remaining <= 0 || !active.test(target)) continue;
      const p = active.rule.probability ?? 1;
      if (p < 1 && this.random() >= p) continue;
      active.remaining -= 1;
      return active.rule.fault;
    }
    return null;
  }

  private activate(rule: FaultRule): ActiveRule {
    return { rule, test: compileMatch(rule.match), remaining: rule.times ?? Number.POSITIVE_INFINITY };
  }
}
