// The body of POST /v1/referrals (a member's referral code and the friend's e-mail) and the query of
// GET /v1/customers/{identifier}/referrals (a page).
import * as z from 'zod/mini';
import { isValidEmailAddress } from '../config/email-address';
import { parseBody } from '../http/validation';
import { type Page, parsePage } from '../http/query';

const required = (field: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? `${field} is required` : `${field} must be a string`;

export const createReferralBodySchema = z.object({
  referral_code: z
    .string({ error: required('referral_code') })
    .check(
      z.trim(),
      z.minLength(1, { error: 'referral_code is required' }),
      z.maxLength(64, { error: 'referral_code must be at most 64 characters' }),
    ),
  email: z
    .string({ error: required('email') })
    .check(
      z.trim(),
      z.minLength(1, { error: 'email is required' }),
      z.refine(isValidEmailAddress, { error: 'email must be an e-mail address' }),
    ),
});

export type CreateReferralInput = z.output<typeof createReferralBodySchema>;

export function parseCreateReferralBody(body: unknown): CreateReferralInput {
  return parseBody(createReferralBodySchema, body);
}

export function parseReferralsQuery(query: Record<string, string>): Page {
  return parsePage(query);
}
