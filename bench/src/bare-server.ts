/**
 * The baseline: bare express doing the least the gateway's measured routes must do, in the same
 * run. GET answers the very JSON the gateway answered for the job (same object, same size);
 * POST parses the body with the gateway's JSON parser settings and answers the created job's
 * JSON with 202. ETags are off, as on the gateway, so both serialize the same bytes and
 * nothing more. Bodies come from the bench (BARE_GET_BODY, BARE_CREATE_BODY); without them the
 * answers are a small placeholder.
 */
import express from 'express';

const getBody: unknown = JSON.parse(process.env.BARE_GET_BODY ?? '{"data":"hello"}');
const createBody: unknown = JSON.parse(process.env.BARE_CREATE_BODY ?? '{"data":"hello"}');

const app = express();
app.set('etag', false);
app.get('/', (_req, res) => {
  res.json(getBody);
});
app.get('/v1/key/jobs/:jobId', (_req, res) => {
  res.json(getBody);
});
app.post(
  '/v1/key/projects/:projectId/jobs',
  express.json({ limit: '1mb', strict: true, type: ['application/json', 'application/*+json'] }),
  (req, res) => {
    if (req.body === undefined) {
      res.status(400).json({ error: 'body must be JSON' });
      return;
    }
    res.status(202).json(createBody);
  },
);
app.listen(Number(process.argv[2] ?? process.env.PORT ?? 0));
// An orderly exit on SIGTERM, so that `node --cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));
