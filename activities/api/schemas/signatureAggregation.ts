import { z } from 'zod';

/** Response of the signature aggregation utility: the signed message, hex. */
export const SignedMessageResponse = z.looseObject({ signedMessage: z.string() });
export type SignedMessageResponse = z.infer<typeof SignedMessageResponse>;
