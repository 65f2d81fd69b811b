/**
 * Bodies of the two documented write calls. Strict: these are what we send, so a
 * typo is an error before the request, not a silently ignored field.
 * Their response bodies are not documented (returned as parsed JSON).
 */
import { z } from "zod";
import { Timestamp } from "./common.js";
import { ORGANIZATION_TYPES } from "./reference.js";

export const USER_ROLES = [
  "organization_manager",
  "organization_customer_service",
  "medical_professional",
  "software_developer",
] as const;

export const CreateUserRequest = z.strictObject({
  email: z.email(),
  /** For logging in on the platform. */
  password: z.string().min(1).optional(),
  role: z.enum(USER_ROLES),
  targetGroups: z.array(z.string()).optional(),
  organization: z.number().int(),
  /** Default true. */
  isEnabled: z.boolean().optional(),
  profile: z.strictObject({ name: z.string().min(1) }),
  preferences: z.strictObject({
    /** Default true: publicly visible. */
    isPublic: z.boolean().optional(),
    language: z.string().min(1),
  }),
  subscription: z.strictObject({
    /** Subscription ID. */
    type: z.number().int(),
    start: Timestamp.optional(),
    end: Timestamp.optional(),
  }),
});
export type CreateUserRequest = z.input<typeof CreateUserRequest>;

export const CreateOrganizationRequest = z.strictObject({
  settings: z.strictObject({ isPublic: z.boolean().optional() }).optional(),
  profile: z.strictObject({
    name: z.string().min(1),
    address: z.string().optional(),
    zipCode: z.string().optional(),
    /** Subdivision code. */
    region: z.string().optional(),
    city: z.string().optional(),
    /** ISO 3166 alpha-2. */
    country: z.string().regex(/^[A-Z]{2}$/, "expected an ISO 3166 alpha-2 code such as BE").optional(),
    phone: z.string().optional(),
    url: z.string().optional(),
    type: z.enum(ORGANIZATION_TYPES).optional(),
    vatNr: z.string().optional(),
    finessNr: z.string().optional(),
    /** CIP-GERS number. */
    cipNr: z.string().optional(),
  }),
});
export type CreateOrganizationRequest = z.input<typeof CreateOrganizationRequest>;
