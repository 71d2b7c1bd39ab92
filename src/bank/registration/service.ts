import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { type BvnIdentityView, MAX_DOCUMENTS, registrationFields } from '../../contract/api/business.js';
import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { drawnIdentity, UNKNOWN_BVN } from '../../domain/bvn.js';
import { isoAt } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { imageType } from '../../domain/image-type.js';
import { parseInput } from '../../domain/parse.js';
import type { ClientRecord, UserRecord } from '../../domain/records.js';
import { secureEqual } from '../../domain/secure-compare.js';
import { safeFileName } from '../../store/uploads.js';
import { recordAudit } from '../audits/service.js';

/** The OTP that always works in the sandbox, beside the one sent to the outbox. */
export const SANDBOX_OTP = '123456';

/**
 * Validates a BVN for one of the client's businesses, the first step of its registration: answers the BVN's holder
 * (the fixtures' table, else a person drawn from the seed and the BVN) and "sends" the owner the OTP that completing
 * the registration takes (it lands in the outbox). The BVN `00000000000` is in no register: 400.
 */
export async function validateBvn(
  deps: Deps,
  actor: Actor,
  client: ClientRecord,
  input: { bvn: string; businessId: string },
): Promise<BvnIdentityView> {
  const business = deps.store.get('businesses', input.businessId);
  if (!business || business.clientId !== client.id) throw new ApiError(404, 'Business not found');
  if (input.bvn === UNKNOWN_BVN) throw new ApiError(400, 'BVN not found');
  const listed = deps.fixtures.bvns.find((person) => person.bvn === input.bvn);
  const identity = listed ?? drawnIdentity(deps.store.meta().seed, input.bvn);
  await deps.store.mutate((tx) => {
    const otp = tx.random().digits(6);
    tx.put('outbox', {
      id: tx.random().uuid(),
      clientId: client.id,
      type: 'bvn_otp',
      to: client.email,
      subject: `Your BVN validation code for ${business.businessName}`,
      body: `Use ${otp} to complete the registration of ${business.businessName}.`,
      data: { businessId: business.id, otp },
      createdAt: isoAt(deps.clock),
    });
    recordAudit(tx, deps, actor, { businessId: business.id, type: 'business', action: 'validate' });
  });
  return {
    phoneNumber: identity.phoneNumber,
    bvn: identity.bvn,
    firstName: identity.firstName,
    lastName: identity.lastName,
    otherNames: identity.otherNames,
    dob: identity.dob,
  };
}

/** A form value as Hono's `parseBody({ all: true })` gives it. */
type FormValue = string | File | (string | File)[] | undefined;

function files(value: FormValue): File[] {
  const all = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return all.filter((v): v is File => typeof v !== 'string');
}

function text(value: FormValue): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

async function stored(
  deps: Deps,
  businessId: string,
  file: File,
  bytes: Uint8Array,
  origin: string,
): Promise<string> {
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const name = safeFileName(file.name);
  const key = await deps.uploads.save(businessId, `${digest}-${extname(name) ? name : `${name}.bin`}`, bytes);
  return `${origin}/uploads/${key}`;
}

/**
 * Completes a business's KYC registration from a multipart form: BVN, address, state, OTP (`123456`, or one sent
 * to the outbox when a BVN was validated for the business), the caller's password, a JPEG or PNG photo ID (checked by
 * its bytes) and optional documents. The business stays unapproved until the operator approves it.
 */
export async function completeRegistration(
  deps: Deps,
  actor: Actor,
  user: UserRecord,
  form: Record<string, FormValue>,
  origin: string,
): Promise<void> {
  const fields = parseInput(registrationFields, {
    businessId: text(form.businessId),
    bvn: text(form.bvn),
    residentialAddress: text(form.residentialAddress),
    stateId: text(form.stateId),
    otp: text(form.otp),
    password: text(form.password),
  });
  const business = deps.store.get('businesses', fields.businessId);
  if (!business || business.clientId !== user.clientId) throw new ApiError(404, 'Business not found');
  if (business.isApproved) throw new ApiError(400, 'Business is already approved');
  if (!deps.fixtures.states.some((s) => s.id === fields.stateId)) throw new ApiError(400, 'Invalid stateId');
  const sentOtp = deps.store
    .where('outbox', 'clientId', user.clientId)
    .some((m) => m.type === 'bvn_otp' && m.data.businessId === business.id && m.data.otp === fields.otp);
  if (fields.otp !== SANDBOX_OTP && !sentOtp) throw new ApiError(400, 'Invalid OTP');
  if (!secureEqual(user.password, fields.password)) throw new ApiError(400, 'Invalid password');

  const [photo, ...extraPhotos] = files(form.photoId);
  if (!photo || extraPhotos.length > 0) {
    throw new ApiError(400, 'photoId is required: one JPEG or PNG file', [
      { field: 'photoId', message: 'is required' },
    ]);
  }
  const documents = files(form.businessDocuments);
  if (documents.length > MAX_DOCUMENTS) throw new ApiError(400, `At most ${MAX_DOCUMENTS} businessDocuments`);
  for (const f of [photo, ...documents]) {
    if (f.size > deps.config.uploadLimit) {
      throw new ApiError(413, `${f.name || 'A file'} is larger than ${deps.config.uploadLimit} bytes`);
    }
  }
  const photoBytes = new Uint8Array(await photo.arrayBuffer());
  if (!imageType(photoBytes)) throw new ApiError(400, 'photoId must be a JPEG or PNG image');

  const photoIdUrl = await stored(deps, business.id, photo, photoBytes, origin);
  const businessDocumentsUrls: string[] = [];
  for (const doc of documents) {
    businessDocumentsUrls.push(
      await stored(deps, business.id, doc, new Uint8Array(await doc.arrayBuffer()), origin),
    );
  }
  await deps.store.mutate((tx) => {
    const current = tx.get('businesses', business.id);
    if (!current) throw new ApiError(404, 'Business not found');
    tx.put('businesses', {
      ...current,
      bvn: fields.bvn,
      residentialAddress: fields.residentialAddress,
      stateId: fields.stateId,
      photoIdUrl,
      businessDocumentsUrls,
    });
    recordAudit(tx, deps, actor, {
      businessId: business.id,
      type: 'business',
      action: 'register',
    });
  });
}
