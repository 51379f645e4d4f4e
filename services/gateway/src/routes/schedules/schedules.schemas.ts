import { createScheduleBody, patchScheduleBody } from '@crawl/jobs';
import { z } from 'zod';
import { intQueryParam } from '../../validation';

export const schedulesQuery = z
  .object({
    limit: intQueryParam(1, 100, 20),
    offset: intQueryParam(0, 1_000_000, 0),
  })
  .strict();

/** Delete takes no body; an empty object is tolerated for clients that always send one. */
export const emptyBody = z.union([z.undefined(), z.object({}).strict()]);

/** The bodies with component names in the document, so the generated SDK has a type for each. */
export const CreateScheduleBody = createScheduleBody.openapi('CreateScheduleBody');
export const UpdateScheduleBody = patchScheduleBody.openapi('UpdateScheduleBody');
