import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../api/client';

export type Destination = Schemas['Destination'];
export type DestinationDelivery = Schemas['DestinationDelivery'];
export type DeliveryStatus = DestinationDelivery['status'];
export type CreateDestinationBody = Schemas['CreateDestinationBody'];
export type DestinationFormat = Destination['format'];

/**
 * Query keys of destinations: every key starts with `['destinations', projectId]`, so a write
 * (a new destination, a deletion, a retry) refreshes the list, the delivery log and the job page.
 */
export const destinationKeys = {
  ofProject: (projectId: string) => ['destinations', projectId] as const,
  list: (projectId: string) => ['destinations', projectId, 'list'] as const,
  deliveries: (projectId: string, destinationId: string, filter: { status?: DeliveryStatus; offset: number }) =>
    ['destinations', projectId, 'deliveries', destinationId, filter.status, filter.offset] as const,
  ofJob: (projectId: string, destinationId: string, jobId: string) => ['destinations', projectId, 'job', destinationId, jobId] as const,
};

/** A project holds at most 10 destinations (docs/destinations.md): the list is all of them, oldest first. */
export const destinationsQuery = (projectId: string) =>
  queryOptions({
    queryKey: destinationKeys.list(projectId),
    queryFn: async () => (await unwrap(api.GET('/v1/key/projects/{projectId}/destinations', { params: { path: { projectId } } }))).data,
  });

export const fetchDeliveries = (destinationId: string, query: { status?: DeliveryStatus; jobId?: string; offset: number; limit: number }) =>
  unwrap(api.GET('/v1/key/destinations/{destinationId}/deliveries', { params: { path: { destinationId }, query } }));

/** Answers 201 only after a test object was written and deleted; else 400 DESTINATION_UNREACHABLE and nothing is saved. */
export const createDestination = (projectId: string, body: CreateDestinationBody) =>
  unwrap(api.POST('/v1/key/projects/{projectId}/destinations', { params: { path: { projectId } }, body }));

export const deleteDestination = (destinationId: string) =>
  unwrap(api.DELETE('/v1/key/destinations/{destinationId}', { params: { path: { destinationId } } }));

/** 202: the export is sent again now, whatever the delivery's status (the object under its key is replaced whole). */
export const retryDelivery = (destinationId: string, jobId: string) =>
  unwrap(api.POST('/v1/key/destinations/{destinationId}/deliveries/{jobId}/retry', { params: { path: { destinationId, jobId } } }));
