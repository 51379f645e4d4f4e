/** The baseline: a bare express hello-world, measured in the same run as the gateway. */
import express from 'express';

const app = express();
app.get('/', (_req, res) => {
  res.json({ data: 'hello' });
});
app.listen(Number(process.argv[2] ?? process.env.PORT ?? 0));
