import { AppError, destinationDeliverySchema as DestinationDelivery, destinationSchema as Destination, ID_PATTERN } from '@crawl/core';
import type { Request } from 'express';
import { z } from 'zod';
import { parseOrThrow } from '../../validation';
import { data, list, LOCATION } from '../operation';
import { projectActor } from '../project-audit';
import { type Resource, routesOf } from '../route';
import { CreateDestinationBody, deliveriesQuery, emptyBody, UpdateDestinationBody } from './destinations.schemas';
import { createDestinationService, type DestinationService } from './destinations.service';

function pathId(req: Request, name: 'destinationId' | 'jobId', what: string): string {
  const id = String(req.params[name]);
  if (!ID_PATTERN.test(id)) throw new AppError('NOT_FOUND', `${what} ${id} not found.`);
  return id;
}
const destinationId = (req: Request) => pathId(req, 'destinationId', 'Destination');

const route = routesOf<DestinationService>();

/** Storage destinations: create (after a test write), list, GET, PATCH and DELETE, and their deliveries (docs/destinations.md). */
export const destinationsRoutes = [
  route({
    method: 'post',
    path: '/v1/key/projects/{projectId}/destinations',
    tag: 'Destinations',
    summary: 'Create a storage destination',
    description:
      "An S3-compatible bucket that receives the export of every completed job of the project (or of the jobs of `scheduleIds`), at `{prefix}{projectId}/{YYYY}/{MM}/{DD}/{jobId}.{ext}[.gz]`. Saved only after a test object was written and deleted with the credentials: a failure is `400 DESTINATION_UNREACHABLE` with the storage's code. The secret key is stored encrypted and never returned; at most 10 destinations per project.",
    body: CreateDestinationBody,
    status: 201,
    response: data(Destination),
    responseHeaders: LOCATION('destination'),
    errors: [403],
    handler: async ({ req, service, body }) => {
      const destination = await service.create(projectActor(req), body());
      return { status: 201, body: { data: destination }, headers: { Location: `/v1/key/destinations/${destination.id}` } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/projects/{projectId}/destinations',
    operationId: 'listDestinations',
    tag: 'Destinations',
    summary: 'List storage destinations',
    description: "The project's destinations, oldest first.",
    status: 200,
    response: data(z.array(Destination)),
    errors: [403],
    handler: async ({ req, service }) => ({ status: 200, body: { data: await service.list(req.principal.projectId) } }),
  }),
  route({
    method: 'get',
    path: '/v1/key/destinations/{destinationId}',
    tag: 'Destinations',
    summary: 'Get a storage destination',
    description: 'One destination (without its secret key).',
    status: 200,
    response: data(Destination),
    errors: [404],
    handler: async ({ req, service }) => ({ status: 200, body: { data: await service.get(destinationId(req), req.principal.projectId) } }),
  }),
  route({
    method: 'patch',
    path: '/v1/key/destinations/{destinationId}',
    tag: 'Destinations',
    summary: 'Update a storage destination',
    description:
      'Change any field; a change of the bucket, region, endpoint, prefix or credentials is tested with a test write again before it is saved.',
    body: UpdateDestinationBody,
    status: 200,
    response: data(Destination),
    errors: [404],
    handler: async ({ req, service, body }) => {
      const id = destinationId(req);
      return { status: 200, body: { data: await service.update(id, projectActor(req), body()) } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/key/destinations/{destinationId}',
    tag: 'Destinations',
    summary: 'Delete a storage destination',
    description: 'Stops deliveries to it and forgets its delivery records; objects already delivered stay in the bucket.',
    status: 204,
    responseDescription: 'Deleted',
    errors: [404],
    handler: async ({ req, service }) => {
      parseOrThrow(emptyBody, req.body, 'body');
      await service.delete(destinationId(req), projectActor(req));
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/destinations/{destinationId}/deliveries',
    tag: 'Destinations',
    summary: "List a destination's deliveries",
    description:
      'One record per job export sent (or to send) to the destination, newest first: its object key, size, status, attempts and last error.',
    query: deliveriesQuery,
    status: 200,
    response: list(DestinationDelivery),
    errors: [404],
    handler: async ({ req, service, query }) => ({
      status: 200,
      body: await service.deliveries(destinationId(req), req.principal.projectId, query()),
    }),
  }),
  route({
    method: 'post',
    path: '/v1/key/destinations/{destinationId}/deliveries/{jobId}/retry',
    tag: 'Destinations',
    summary: 'Deliver a job export again',
    description:
      'Sends the job export to the destination again now, whatever its delivery status (the object under its key is replaced whole).',
    status: 202,
    response: data(DestinationDelivery),
    errors: [404],
    handler: async ({ req, service }) => {
      parseOrThrow(emptyBody, req.body, 'body');
      const id = destinationId(req);
      return { status: 202, body: { data: await service.retry(id, req.principal.projectId, pathId(req, 'jobId', 'Job')) } };
    },
  }),
];

export const destinationsResource: Resource<DestinationService> = {
  routes: destinationsRoutes,
  service: createDestinationService,
};
