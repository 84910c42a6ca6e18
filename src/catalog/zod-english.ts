/**
 * zod's English issue messages for schemas built with `zod/mini`, which sets no locale (alone, it
 * words every issue "Invalid input"; classic zod sets English when it builds its first schema).
 * Imported for its effect by the lazy pages' and the exports' schemas, whose messages people read
 * ("damaged at name: Too small: …"); not by the first page, whose form schema words its own.
 */
import { config } from 'zod/mini';
import { globalConfig } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

// As classic does: a locale someone chose explicitly stays.
if (!globalConfig.localeError) config(en());
