import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { tightenDocument } from './openapi-strict';

export type HeaderValues = Record<string, string | string[] | number | undefined>;

/** One HTTP exchange as the server answered it. */
export interface ContractResponse {
  method: string;
  /** The request target: a path, optionally with a query string (ignored). */
  path: string;
  status: number;
  /** Defaults to `headers['content-type']`. */
  contentType?: string;
  headers?: HeaderValues;
  /** The decoded body: `''` when empty, `undefined` when not captured (body checks are skipped then). */
  body?: string | Buffer;
}

/** One webhook delivery: the request headers and the raw (string/Buffer) or parsed JSON body. */
export interface WebhookDelivery {
  headers: HeaderValues;
  body: unknown;
}

export interface ContractChecker {
  /** Problems with one response (empty when it matches the document). */
  checkResponse(response: ContractResponse): string[];
  /** Problems with one delivery, checked against the document's `webhooks` entry for `body.event`. */
  checkWebhookDelivery(delivery: WebhookDelivery): string[];
}

type Obj = Record<string, unknown>;
type Pointer = string[];

const DOC_ID = 'https://contract-checker.invalid/openapi.json';
const MAX_ERRORS = 20;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Route {
  template: string;
  segments: (string | RegExp)[];
}

function compileRoute(template: string): Route {
  const segments = splitPath(template).map((segment) => {
    if (!segment.includes('{')) return segment;
    const source = segment
      .split(/(\{[^}]*\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    return new RegExp(`^${source}$`);
  });
  return { template, segments };
}

const splitPath = (path: string): string[] => path.split('/').filter((s, i, all) => i > 0 && !(s === '' && i === all.length - 1));

/** The matching route with the most literal segments, leftmost first (`/webhooks/test` beats `/webhooks/{id}`). */
function matchRoute(routes: Route[], pathname: string): Route | undefined {
  const parts = splitPath(pathname);
  let best: { route: Route; score: string } | undefined;
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    let score = '';
    let ok = true;
    for (const [i, segment] of route.segments.entries()) {
      const part = parts[i]!;
      if (typeof segment === 'string') ok = segment === part;
      else ok = segment.test(part);
      if (!ok) break;
      score += typeof segment === 'string' ? '1' : '0';
    }
    if (ok && (!best || score > best.score)) best = { route, score };
  }
  return best?.route;
}

const mediaTypeOf = (contentType: string | undefined): string | undefined => contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
const isJson = (mediaType: string): boolean => mediaType === 'application/json' || mediaType.endsWith('+json');

/** The declared media type key that covers `mediaType`: exact, then `type/*`, then `*` + `/*`. */
function matchMediaType(mediaType: string, declared: string[]): string | undefined {
  const [type] = mediaType.split('/');
  const byNormal = (wanted: string) => declared.find((key) => mediaTypeOf(key) === wanted);
  return byNormal(mediaType) ?? byNormal(`${type}/*`) ?? byNormal('*/*');
}

function headerValue(headers: HeaderValues | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted && value !== undefined) return Array.isArray(value) ? value.join(', ') : String(value);
  }
  return undefined;
}

function describeError(error: ErrorObject): string {
  const params = error.params as Obj;
  const property = params.unevaluatedProperty ?? params.additionalProperty;
  let detail = '';
  if (typeof property === 'string') detail = ` (${property})`;
  else if (Array.isArray(params.allowedValues)) detail = ` (${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')})`;
  else if ('allowedValue' in params) detail = ` (${JSON.stringify(params.allowedValue)})`;
  return `${error.instancePath || '(root)'} ${error.message ?? error.keyword}${detail}`;
}

const fragment = (pointer: Pointer): string => pointer.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/**
 * A checker for one OpenAPI 3.1 document (the gateway's `/openapi.json`). Objects are closed
 * (see openapi-strict.ts), so an undocumented field fails even though the published document
 * leaves objects open. Schemas compile lazily, once per operation, status and media type.
 */
export interface ContractOptions {
  /**
   * How a server may answer a path the document does not have (a mistyped or hostile URL):
   * one of these statuses, with a JSON body of this component schema. Without it, any
   * undocumented path is a problem.
   */
  unknownPaths?: { statuses: number[]; schema: string };
}

export function createContractChecker(document: object, options: ContractOptions = {}): ContractChecker {
  const doc = tightenDocument(document);
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats(ajv);
  ajv.addSchema(doc, DOC_ID);
  const routes = Object.keys(isObject(doc.paths) ? doc.paths : {}).map(compileRoute);
  const validators = new Map<string, ValidateFunction | Error>();

  const at = (pointer: Pointer): unknown =>
    pointer.reduce<unknown>((node, key) => (isObject(node) || Array.isArray(node) ? (node as Obj)[key] : undefined), doc);

  /** Follows local Reference Objects (`$ref: '#/components/responses/X'`), keeping where it ended. */
  function follow(pointer: Pointer): { node: Obj | undefined; pointer: Pointer } {
    let node = at(pointer);
    for (let hops = 0; isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/') && hops < 20; hops++) {
      pointer = node.$ref
        .slice(2)
        .split('/')
        .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
      node = at(pointer);
    }
    return { node: isObject(node) ? node : undefined, pointer };
  }

  function validate(label: string, schemaPointer: Pointer, value: unknown): string[] {
    const key = fragment(schemaPointer);
    let validator = validators.get(key);
    if (!validator) {
      try {
        validator = ajv.compile({ $ref: `${DOC_ID}#/${key}` });
      } catch (err) {
        validator = err instanceof Error ? err : new Error(String(err));
      }
      validators.set(key, validator);
    }
    if (validator instanceof Error) return [`${label}: cannot compile the documented schema: ${validator.message}`];
    if (validator(value)) return [];
    const messages = [...new Set((validator.errors ?? []).map(describeError))];
    const shown = messages.slice(0, MAX_ERRORS).map((m) => `${label}: ${m}`);
    if (messages.length > MAX_ERRORS) shown.push(`${label}: … and ${messages.length - MAX_ERRORS} more`);
    return shown;
  }

  function checkBody(
    label: string,
    responsePointer: Pointer,
    response: Obj,
    contentType: string | undefined,
    body: string | Buffer | undefined,
  ): string[] {
    const content = isObject(response.content) ? response.content : {};
    const declared = Object.keys(content);
    const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
    const mediaType = mediaTypeOf(contentType);
    if (declared.length === 0) {
      return text ? [`${label}: a body was sent (${mediaType ?? 'no Content-Type'}) but the document declares none`] : [];
    }
    if (!mediaType)
      return [
        text === ''
          ? `${label}: empty body, but the document declares ${declared.join(', ')}`
          : `${label}: no Content-Type (declared: ${declared.join(', ')})`,
      ];
    const key = matchMediaType(mediaType, declared);
    if (!key) return [`${label}: Content-Type ${mediaType} is not documented (declared: ${declared.join(', ')})`];
    if (!isJson(mediaType) || text === undefined || !isObject(content[key]) || !('schema' in content[key])) return [];
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [`${label}: the ${mediaType} body is not valid JSON`];
    }
    return validate(label, [...responsePointer, 'content', key, 'schema'], value);
  }

  function checkUnknownPath(method: string, pathname: string, r: ContractResponse): string[] {
    const allowed = options.unknownPaths;
    const label = `${method} ${pathname} ${r.status}`;
    if (!allowed?.statuses.includes(r.status)) return [`${method} ${pathname}: path not documented`];
    const mediaType = mediaTypeOf(r.contentType ?? headerValue(r.headers, 'content-type'));
    if (!mediaType || !isJson(mediaType)) return [`${label}: an undocumented path must answer JSON, not ${mediaType ?? 'no Content-Type'}`];
    const text = Buffer.isBuffer(r.body) ? r.body.toString('utf8') : r.body;
    if (text === undefined) return [];
    try {
      return validate(label, ['components', 'schemas', allowed.schema], JSON.parse(text));
    } catch {
      return [`${label}: the body is not valid JSON`];
    }
  }

  function checkResponse(r: ContractResponse): string[] {
    const method = r.method.toUpperCase();
    if (method === 'HEAD' || method === 'OPTIONS') return [];
    const pathname = r.path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').split(/[?#]/)[0] || '/';
    const route = matchRoute(routes, pathname);
    if (!route) return checkUnknownPath(method, pathname, r);
    const item = follow(['paths', route.template]);
    const operation = item.node?.[method.toLowerCase()];
    if (!isObject(operation)) return [`${method} ${route.template}: method not documented`];
    const label = `${method} ${route.template} ${r.status}`;
    const responses = isObject(operation.responses) ? operation.responses : {};
    const status = String(r.status);
    const key = [status, `${status[0]}XX`, `${status[0]}xx`, 'default'].find((k) => k in responses);
    if (!key) return [`${label}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
    const { node: response, pointer } = follow([...item.pointer, method.toLowerCase(), 'responses', key]);
    if (!response) return [`${label}: the documented response cannot be resolved`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries(isObject(response.headers) ? response.headers : {})) {
      const declared = isObject(header) && typeof header.$ref === 'string' ? follow([...pointer, 'headers', name]).node : header;
      if (isObject(declared) && declared.required === true && headerValue(r.headers, name) === undefined)
        problems.push(`${label}: missing required header ${name}`);
    }
    const contentType = r.contentType ?? headerValue(r.headers, 'content-type');
    return [...problems, ...checkBody(label, pointer, response, contentType, r.body)];
  }

  function checkWebhookDelivery(delivery: WebhookDelivery): string[] {
    let payload = delivery.body;
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      try {
        payload = JSON.parse(payload.toString());
      } catch {
        return ['webhook: the body is not valid JSON'];
      }
    }
    const event = isObject(payload) && typeof payload.event === 'string' ? payload.event : undefined;
    if (!event) return ['webhook: the body has no string `event`'];
    const label = `webhook ${event}`;
    const hooks = isObject(doc.webhooks) ? doc.webhooks : undefined;
    if (!hooks || Object.keys(hooks).length === 0) return [`${label}: the document has no webhooks section`];
    const key = event in hooks ? event : Object.keys(hooks).find((k) => follow(['webhooks', k, 'post']).node?.operationId === event);
    const item = key === undefined ? undefined : follow(['webhooks', key]);
    const post = item && follow([...item.pointer, 'post']);
    if (!item?.node || !post?.node) return [`${label}: event not documented (documented: ${Object.keys(hooks).join(', ')})`];
    const problems: string[] = [];
    const parameters = [
      ...(Array.isArray(item.node.parameters) ? item.node.parameters.map((_, i) => [...item.pointer, 'parameters', String(i)]) : []),
      ...(Array.isArray(post.node.parameters) ? post.node.parameters.map((_, i) => [...post.pointer, 'parameters', String(i)]) : []),
    ];
    for (const parameter of parameters.map((p) => follow(p).node)) {
      if (parameter?.in !== 'header' || parameter.required !== true || typeof parameter.name !== 'string') continue;
      if (headerValue(delivery.headers, parameter.name) === undefined) problems.push(`${label}: missing required header ${parameter.name}`);
    }
    const body = follow([...post.pointer, 'requestBody']);
    const media = isObject(body.node?.content) ? body.node.content['application/json'] : undefined;
    if (!isObject(media) || !('schema' in media)) return [...problems, `${label}: the document declares no application/json request body`];
    return [...problems, ...validate(label, [...body.pointer, 'content', 'application/json', 'schema'], payload)];
  }

  return { checkResponse, checkWebhookDelivery };
}
