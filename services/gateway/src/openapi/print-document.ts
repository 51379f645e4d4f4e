import { openApiDocument } from './document';

/** Prints the OpenAPI document (`pnpm sdk:generate` writes it to packages/client/openapi.json). */
process.stdout.write(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
