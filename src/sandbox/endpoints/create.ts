/**
 * POST /v4/users/create and /v4/organizations/create: the documented fields,
 * validated strictly (unknown keys are violations), answered with the created
 * record as the query endpoints return it. Created records live in memory for
 * the life of the server and show up in users/query and organizations/query.
 * The response shape is not documented; the record is the least surprising.
 */
import { z } from "zod";
import { CATALOGUE_NOW } from "../generate/clock.js";
import { HIDDEN, type Wire } from "../generate/types.js";
import { errorReply, type Violation } from "../server/errors.js";
import { json, type Handler } from "./types.js";

const timestamp = z.number().int();

const UserCreate = z.strictObject({
  email: z.string().regex(/^[^@\s]+@[^@\s]+$/, "expected an e-mail address"),
  password: z.string().min(1).optional(),
  role: z.enum(["organization_manager", "organization_customer_service", "medical_professional", "software_developer"]),
  targetGroups: z.array(z.string()).optional(),
  organization: z.number().int(),
  isEnabled: z.boolean().optional(),
  profile: z.strictObject({ name: z.string().min(1) }),
  preferences: z.strictObject({ isPublic: z.boolean().optional(), language: z.string().min(2) }),
  subscription: z.strictObject({ type: z.number().int(), start: timestamp.optional(), end: timestamp.optional() }),
});

const OrganizationCreate = z.strictObject({
  settings: z.strictObject({ isPublic: z.boolean().optional() }).optional(),
  profile: z.strictObject({
    name: z.string().min(1),
    address: z.string().optional(),
    zipCode: z.string().optional(),
    region: z.string().optional(),
    city: z.string().optional(),
    country: z.string().regex(/^[A-Z]{2}$/, "expected an ISO 3166 alpha-2 code such as BE").optional(),
    phone: z.string().optional(),
    url: z.string().optional(),
    type: z.enum(["supplier", "marketing", "medical_professional", "other"]).optional(),
    vatNr: z.string().optional(),
    finessNr: z.string().optional(),
    cipNr: z.string().optional(),
  }),
});

function violations(error: z.ZodError): Violation[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") return issue.keys.map((k) => ({ path: base ? `${base}.${k}` : k, message: "unknown key" }));
    return [{ path: base || "(body)", message: issue.message }];
  });
}

function invalid(error: z.ZodError) {
  return errorReply("invalid", "The request body is invalid.", violations(error));
}

export function createEndpoints(orgIds: () => number[], users: Wire[], organizations: Wire[]): { users: Handler; organizations: Handler } {
  let nextUser = 7900;
  let nextOrg = 1900;
  return {
    users: ({ body }) => {
      const parsed = UserCreate.safeParse(body ?? {});
      if (!parsed.success) return invalid(parsed.error);
      if (!orgIds().includes(parsed.data.organization)) {
        return errorReply("invalid", "The request body is invalid.", [{ path: "organization", message: `no organization ${parsed.data.organization}` }]);
      }
      const user = { id: nextUser++, name: parsed.data.profile.name, organization: parsed.data.organization, meta: { createdAt: CATALOGUE_NOW, updatedAt: CATALOGUE_NOW } };
      users.push(user);
      return json(user);
    },
    organizations: ({ body }) => {
      const parsed = OrganizationCreate.safeParse(body ?? {});
      if (!parsed.success) return invalid(parsed.error);
      const p = parsed.data.profile;
      const type = p.type ?? "other";
      const org: Wire = { id: nextOrg++, name: { fr: p.name, nl: p.name, en: p.name }, type, meta: { createdAt: CATALOGUE_NOW, updatedAt: CATALOGUE_NOW } };
      if (type === "supplier") {
        const { address, zipCode, region, city, country, url } = p;
        org.contactInformation = Object.fromEntries(Object.entries({ address, zipCode, region, city, country, url }).filter(([, v]) => v !== undefined));
      }
      Object.defineProperty(org, HIDDEN, { value: { vatNr: p.vatNr, finessNr: p.finessNr, cipNr: p.cipNr }, enumerable: false });
      organizations.push(org);
      return json(org);
    },
  };
}
