import { z } from 'zod';

/**
 * The parts of a Postman v2.1 collection and of an Insomnia v4 export that an import reads. Only
 * what identifies a request and its values is checked; everything else (scripts, tests, cookies,
 * descriptions) passes through unread.
 * @see https://schema.postman.com/json/collection/v2.1.0/collection.json
 * @see Insomnia's export format 4 (`_type: "export"`, `__export_format: 4`, `resources`).
 */

const TEXT = z.string().max(100_000);
const scalar = z.union([TEXT, z.number(), z.boolean(), z.null()]).optional();

/** Postman's key/value pair (variables, headers, urlencoded body, OAuth 1.0 settings). */
const PostmanPair = z.looseObject({ key: TEXT, value: scalar, disabled: z.boolean().optional() });
export type PostmanPair = z.infer<typeof PostmanPair>;

const PostmanUrl = z.union([
  TEXT,
  z.looseObject({
    raw: TEXT.optional(),
    protocol: TEXT.optional(),
    host: z.union([TEXT, z.array(TEXT)]).optional(),
    port: TEXT.optional(),
    path: z.union([TEXT, z.array(z.union([TEXT, z.looseObject({})]))]).optional(),
  }),
]);

export const PostmanAuthSchema = z.looseObject({
  type: TEXT,
  oauth1: z.array(PostmanPair).optional(),
});
export type PostmanAuth = z.infer<typeof PostmanAuthSchema>;

const PostmanRequest = z.union([
  TEXT,
  z.looseObject({
    method: TEXT.optional(),
    url: PostmanUrl.optional(),
    header: z.union([z.array(PostmanPair), TEXT]).optional(),
    body: z
      .looseObject({
        mode: TEXT.optional(),
        urlencoded: z.array(PostmanPair).optional(),
        raw: TEXT.optional(),
      })
      .nullable()
      .optional(),
    auth: PostmanAuthSchema.nullable().optional(),
  }),
]);
export type PostmanRequest = z.infer<typeof PostmanRequest>;

export interface PostmanItem {
  name?: string | undefined;
  request?: PostmanRequest | undefined;
  item?: PostmanItem[] | undefined;
  auth?: PostmanAuth | null | undefined;
}

const PostmanItemSchema: z.ZodType<PostmanItem> = z.lazy(() =>
  z.looseObject({
    name: TEXT.optional(),
    request: PostmanRequest.optional(),
    item: z.array(PostmanItemSchema).max(10_000).optional(),
    auth: PostmanAuthSchema.nullable().optional(),
  }),
);

export const PostmanCollectionSchema = z.looseObject({
  info: z.looseObject({
    name: TEXT,
    schema: TEXT.refine((s) => /\/v2\.1(\.\d+)?\//.test(s), {
      message: 'not the v2.1 collection format (export it from Postman as "Collection v2.1")',
    }),
  }),
  item: z.array(PostmanItemSchema).max(10_000),
  variable: z.array(PostmanPair).optional(),
  auth: PostmanAuthSchema.nullable().optional(),
});
export type PostmanCollection = z.infer<typeof PostmanCollectionSchema>;

const InsomniaPair = z.looseObject({ name: TEXT, value: scalar, disabled: z.boolean().optional() });

export const InsomniaResourceSchema = z.looseObject({
  _id: TEXT,
  _type: TEXT,
  parentId: TEXT.nullable().optional(),
  name: TEXT.optional(),
  method: TEXT.optional(),
  url: TEXT.optional(),
  body: z
    .looseObject({
      mimeType: TEXT.nullable().optional(),
      params: z.array(InsomniaPair).optional(),
      text: TEXT.optional(),
    })
    .optional(),
  headers: z.array(InsomniaPair).optional(),
  authentication: z.record(z.string(), z.unknown()).optional(),
  /** An environment's variables. */
  data: z.record(z.string(), z.unknown()).optional(),
});
export type InsomniaResource = z.infer<typeof InsomniaResourceSchema>;

export const InsomniaExportSchema = z.looseObject({
  _type: z.literal('export'),
  __export_format: z.literal(4),
  resources: z.array(InsomniaResourceSchema).max(20_000),
});
export type InsomniaExport = z.infer<typeof InsomniaExportSchema>;
