import { AppError, ID_PATTERN, isMarketplaceCode, isSafeText, normalizeAsin, UNSAFE_TEXT_MESSAGE } from '@crawl/core';
import { Router } from 'express';
import { z } from 'zod';
import { requireOwnProject } from '../../middleware/auth';
import { dateLowerBound } from '../../date-params';
import { intQueryParam, parseOrThrow } from '../../validation';
import type { TrackingService } from './tracking.service';

const marketplace = z
  .string()
  .transform((v) => v.toUpperCase())
  .refine(isMarketplaceCode, 'must be a marketplace code such as US, DE');

export const trackedTargetsQuery = z
  .object({
    marketplace: marketplace.optional(),
    changedSince: dateLowerBound.optional(),
    limit: intQueryParam(1, 100, 20),
    offset: intQueryParam(0, 1_000_000, 0),
  })
  .strict();
export const timelineQuery = z.object({ marketplace, limit: intQueryParam(1, 1000, 50) }).strict();
export const compareQuery = z.object({ from: z.string().min(1).max(100).refine(isSafeText, UNSAFE_TEXT_MESSAGE), to: z.string().min(1).max(100).refine(isSafeText, UNSAFE_TEXT_MESSAGE) }).strict();

/** Tracked targets, a product's timeline, comparison of two result sets. */
export function trackingRouter(service: TrackingService): Router {
  const router = Router();

  router.get('/projects/:projectId/tracked-targets', requireOwnProject, async (req, res) => {
    const q = parseOrThrow(trackedTargetsQuery, req.query, 'query');
    res.json(await service.list({ projectId: req.principal.projectId, ...q }));
  });

  router.get('/projects/:projectId/tracked-targets/:asin/timeline', requireOwnProject, async (req, res) => {
    const q = parseOrThrow(timelineQuery, req.query, 'query');
    const asin = normalizeAsin(String(req.params.asin));
    if (!asin) throw new AppError('NOT_FOUND', `Product ${String(req.params.asin)} was never crawled in this project.`);
    res.json(await service.timeline(req.principal.projectId, q.marketplace, asin, q.limit));
  });

  router.get('/projects/:projectId/compare', requireOwnProject, async (req, res) => {
    const q = parseOrThrow(compareQuery, req.query, 'query');
    for (const id of [q.from, q.to]) if (!ID_PATTERN.test(id)) throw new AppError('NOT_FOUND', `Job ${id} not found.`);
    res.json({ data: await service.compare(req.principal.projectId, q.from, q.to) });
  });

  return router;
}
