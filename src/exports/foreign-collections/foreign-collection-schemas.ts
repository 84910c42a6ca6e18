import { z } from 'zod/mini';
import '../../catalog/zod-english.ts';

/**
 * The parts of a Postman v2.1 collection and of an Insomnia v4 export that an import reads. Only
 * what identifies a request and its values is checked; everything else (scripts, tests, cookies,
 * descriptions) passes through unread.
 * @see https://schema.postman.com/json/collection/v2.1.0/collection.json
 * @see Insomnia's export format 4 (`_type: "export"`, `__export_format: 4`, `resources`).
 */

const TEXT = z.string().check(z.maxLength(100_000));
const scalar = z.optional(z.union([TEXT, z.number(), z.boolean(), z.null()]));

/** Postman's key/value pair (variables, headers, urlencoded body, OAuth 1.0 settings). */
const PostmanPair = z.looseObject({ key: TEXT, value: scalar, disabled: z.optional(z.boolean()) });
export type PostmanPair = z.infer<typeof PostmanPair>;

const PostmanUrl = z.union([
  TEXT,
  z.looseObject({
    raw: z.optional(TEXT),
    protocol: z.optional(TEXT),
    host: z.optional(z.union([TEXT, z.array(TEXT)])),
    port: z.optional(TEXT),
    path: z.optional(z.union([TEXT, z.array(z.union([TEXT, z.looseObject({})]))])),
  }),
]);

export const PostmanAuthSchema = z.looseObject({
  type: TEXT,
  oauth1: z.optional(z.array(PostmanPair)),
});
export type PostmanAuth = z.infer<typeof PostmanAuthSchema>;

const PostmanRequest = z.union([
  TEXT,
  z.looseObject({
    method: z.optional(TEXT),
    url: z.optional(PostmanUrl),
    header: z.optional(z.union([z.array(PostmanPair), TEXT])),
    body: z.optional(
      z.nullable(
        z.looseObject({
          mode: z.optional(TEXT),
          urlencoded: z.optional(z.array(PostmanPair)),
          raw: z.optional(TEXT),
        }),
      ),
    ),
    auth: z.optional(z.nullable(PostmanAuthSchema)),
  }),
]);
export type PostmanRequest = z.infer<typeof PostmanRequest>;

/** A script of an item (`test`, `prerequest`): read only for the variables it sets from the answer. */
const PostmanEventSchema = z.looseObject({
  listen: z.optional(TEXT),
  script: z.optional(z.looseObject({ exec: z.optional(z.union([z.array(TEXT), TEXT])) })),
});
export type PostmanEvent = z.infer<typeof PostmanEventSchema>;

export interface PostmanItem {
  name?: string | undefined;
  event?: PostmanEvent[] | undefined;
  request?: PostmanRequest | undefined;
  item?: PostmanItem[] | undefined;
  auth?: PostmanAuth | null | undefined;
}

const PostmanItemSchema: z.ZodMiniType<PostmanItem> = z.lazy(() =>
  z.looseObject({
    name: z.optional(TEXT),
    event: z.optional(z.array(PostmanEventSchema).check(z.maxLength(100))),
    request: z.optional(PostmanRequest),
    item: z.optional(z.array(PostmanItemSchema).check(z.maxLength(10_000))),
    auth: z.optional(z.nullable(PostmanAuthSchema)),
  }),
);

export const PostmanCollectionSchema = z.looseObject({
  info: z.looseObject({
    name: TEXT,
    schema: TEXT.check(
      z.refine((s) => /\/v2\.1(\.\d+)?\//.test(s), {
        message: 'not the v2.1 collection format (export it from Postman as "Collection v2.1")',
      }),
    ),
  }),
  item: z.array(PostmanItemSchema).check(z.maxLength(10_000)),
  variable: z.optional(z.array(PostmanPair)),
  auth: z.optional(z.nullable(PostmanAuthSchema)),
});
export type PostmanCollection = z.infer<typeof PostmanCollectionSchema>;

const InsomniaPair = z.looseObject({ name: TEXT, value: scalar, disabled: z.optional(z.boolean()) });

export const InsomniaResourceSchema = z.looseObject({
  _id: TEXT,
  _type: TEXT,
  parentId: z.optional(z.nullable(TEXT)),
  name: z.optional(TEXT),
  method: z.optional(TEXT),
  url: z.optional(TEXT),
  body: z.optional(
    z.looseObject({
      mimeType: z.optional(z.nullable(TEXT)),
      params: z.optional(z.array(InsomniaPair)),
      text: z.optional(TEXT),
    }),
  ),
  headers: z.optional(z.array(InsomniaPair)),
  authentication: z.optional(z.record(z.string(), z.unknown())),
  /** An environment's variables. */
  data: z.optional(z.record(z.string(), z.unknown())),
});
export type InsomniaResource = z.infer<typeof InsomniaResourceSchema>;

export const InsomniaExportSchema = z.looseObject({
  _type: z.literal('export'),
  __export_format: z.literal(4),
  resources: z.array(InsomniaResourceSchema).check(z.maxLength(20_000)),
});
export type InsomniaExport = z.infer<typeof InsomniaExportSchema>;
