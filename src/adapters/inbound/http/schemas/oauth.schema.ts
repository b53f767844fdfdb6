import { z } from 'zod';

/** What a provider sends back; other parameters it adds (iss, scope...) are read from the raw URL by the protocol client. */
export const oauthCallbackQuery = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});
