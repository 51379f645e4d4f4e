import { createDestinationBody, DESTINATION_DELIVERY_STATUSES, ID_PATTERN, updateDestinationBody } from '@crawl/core';
import { z } from 'zod';
import { intQueryParam } from '../../validation';

export const CreateDestinationBody = createDestinationBody;
export const UpdateDestinationBody = updateDestinationBody;

export const deliveriesQuery = z
  .object({
    status: z.enum(DESTINATION_DELIVERY_STATUSES).optional(),
    /** One job's delivery (the console's job page). */
    jobId: z.string().regex(ID_PATTERN, 'must be a job id').optional(),
    limit: intQueryParam(1, 100, 20),
    offset: intQueryParam(0, 1_000_000, 0),
  })
  .strict();

/** Delete and retry take no body; an empty object is tolerated for clients that always send one. */
export const emptyBody = z.union([z.undefined(), z.object({}).strict()]);
