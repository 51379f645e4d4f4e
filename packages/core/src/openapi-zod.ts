import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/**
 * zod with `.openapi()`: the API's schemas carry their OpenAPI component names where they are
 * defined, so that every use of a schema (nested ones too) becomes a `$ref` to one component
 * in the gateway's document, and the SDK generated from it has one named type per schema.
 */
extendZodWithOpenApi(z);

export { z };

/**
 * `schema | null` for a schema with a component name. zod-to-openapi 7 renders `.nullable()` of a
 * named schema as a bare `$ref` (null lost) or, with a description, as an `allOf` that rejects
 * null; a union with null renders as `anyOf: [$ref, null]`. (openapi.int.test.ts checks the output.)
 */
export const orNull = <T extends z.ZodTypeAny>(schema: T) => z.union([schema, z.null()]);
