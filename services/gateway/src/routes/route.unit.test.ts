import express from 'express';
import request from 'supertest';
import type { GatewayContext } from '../context';
import { type Resource, resourcesRouter, routesOf } from './route';

const route = routesOf<null>();
const doc = { tag: 'Operations', summary: 's', description: 'd', access: 'public' } as const;

const resource: Resource<null> = {
  service: () => null,
  beforeRoutes(router) {
    // a cookie set before the handler keeps its line next to the handler's
    router.use('/cookies', (_req, res, next) => {
      res.append('Set-Cookie', 'first=1');
      next();
    });
  },
  routes: [
    route({ ...doc, method: 'post', path: '/created', status: 201, errors: [], handler: () => ({ status: 201, body: { data: 1 } }) }),
    route({
      ...doc,
      method: 'delete',
      path: '/cookies',
      status: 204,
      errors: [],
      handler: () => ({ status: 204, headers: { 'Set-Cookie': ['second=2', 'third=3'], 'X-One': 'one' } }),
    }),
    route({
      ...doc,
      method: 'get',
      path: '/page',
      status: 200,
      errors: [],
      handler: () => ({ status: 200, type: 'html', body: '<p>hi</p>' }),
    }),
    route({
      ...doc,
      method: 'get',
      path: '/stream',
      status: 200,
      errors: [],
      handler: () => ({
        stream: async (res) => {
          res.type('text/csv');
          res.write('a,b\n');
          res.end('1,2\n');
        },
      }),
    }),
  ],
};

const app = express().use(resourcesRouter([resource], {} as GatewayContext, () => ({})));

it('writes a JSON result with its status', async () => {
  const res = await request(app).post('/created');
  expect(res.status).toBe(201);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.text).toBe('{"data":1}');
});

it('answers a 204 with no body, appending its headers to those already set', async () => {
  const res = await request(app).delete('/cookies');
  expect(res.status).toBe(204);
  expect(res.text).toBe('');
  expect(res.headers['content-type']).toBeUndefined();
  expect(res.headers['set-cookie']).toEqual(['first=1', 'second=2', 'third=3']);
  expect(res.headers['x-one']).toBe('one');
});

it('sends a typed body as it is, and lets a stream result write the response', async () => {
  const page = await request(app).get('/page');
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.text).toBe('<p>hi</p>');
  const stream = await request(app).get('/stream');
  expect(stream.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(stream.text).toBe('a,b\n1,2\n');
});

// Compile-time checks (pnpm typecheck): these are the mistakes the result type makes errors.
export const mistakes = [
  // @ts-expect-error a status the route does not declare
  route({ ...doc, method: 'get', path: '/a', status: 201, errors: [404], handler: () => ({ status: 200, body: {} }) }),
  route({
    ...doc,
    method: 'get',
    path: '/b',
    status: 200,
    errors: [],
    // @ts-expect-error a handler gets no response to write to
    handler: ({ res }) => ({ status: 200, body: res }),
  }),
  route({
    ...doc,
    method: 'get',
    path: '/c',
    status: 200,
    errors: [],
    handler: ({ req }) => {
      // @ts-expect-error nor through the request
      req.res.json({});
      return { status: 200, body: {} };
    },
  }),
];
