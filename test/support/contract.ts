import { apiContracts } from '../../src/contract/api/index.js';
import { failures } from '../../src/contract/failures.js';
import { isReply } from '../../src/contract/kit.js';
import { answerSchema, controlErrorEnvelope, errorEnvelope } from '../../src/contract/wire.js';
import type { AnswerCheck } from '../../src/http/mount.js';

/** `operationId status` of every answer checked in this test file. */
/** The bank's API's operations: the answers of the others are held against the control API's envelope. */
const apiOperations = new Set(apiContracts.map((c) => c.operationId));

export const checkedAnswers = new Set<string>();

/** `text/html` of `text/html; charset=UTF-8`. */
const mediaType = (contentType: string | null) => contentType?.split(';')[0]?.trim().toLowerCase();

function refuse(reason: string): never {
  // The sandbox of the tests logs nothing, and an error thrown here becomes a bare 500: say why on stderr.
  process.stderr.write(`answer check: ${reason}\n`);
  throw new Error(`answer check: ${reason}`);
}

/** zod's own wording (`Invalid input: expected number, received NaN`, `Too small: …`), which no answer may carry. */
const LIBRARY_WORDING =
  /Invalid input|expected [\w "|]+, received|Too (small|big):|Unrecognized keys?|Invalid (option|string|element|key|UUID|email address|URL|union)\b|expected (string|number) to have/;

/** The first message of an error body worded by the validation library rather than by the sandbox. */
function libraryWording(body: unknown): string | undefined {
  const { message, errors } = body as { message?: unknown; errors?: { message?: unknown }[] };
  const messages = [message, ...(Array.isArray(errors) ? errors.map((e) => e.message) : [])];
  return messages.find((m): m is string => typeof m === 'string' && LIBRARY_WORDING.test(m));
}

/**
 * Every answer of a defined route, held against what its document says: a success status must be one the route
 * documents and its body must parse with the documented (strict) schema, or for a body the route builds itself,
 * have the documented content type; an error status must be one the document lists for it, with the error
 * envelope, worded by the sandbox (never by the validation library). The in-process sandbox of the tests runs with
 * it.
 */
export const answerCheck: AnswerCheck = (route, status, body) => {
  const where = `${route.operationId} ${status}`;
  const reply = route.responses[status];
  // A body of its own at an error status (health's 503) is held against its documented schema, like a success.
  if (status >= 400 && !isReply(reply)) {
    const api = apiOperations.has(route.operationId);
    if (!failures(route, api).has(status))
      refuse(`${where}: the document lists no ${status} for this route (${JSON.stringify(body)})`);
    const parsed = (api ? errorEnvelope : controlErrorEnvelope)().safeParse(body);
    if (!parsed.success) refuse(`${where}: not the error envelope: ${parsed.error.message}`);
    const wording = libraryWording(body);
    if (wording) refuse(`${where}: a message in the validation library's words: ${wording}`);
  } else if (body instanceof Response) {
    // A body of its own (a page, an event stream) is not read here: it must be one the route documents, by its
    // content type.
    // A raw reply with a schema is JSON, which a route may stream in a `Response` of its own (a state export).
    const documented =
      isReply(reply) && reply.kind === 'raw'
        ? (reply.contentType ?? (reply.schema ? 'application/json' : undefined))
        : undefined;
    const given = body.headers.get('content-type');
    if (documented === undefined)
      refuse(`${where}: a body of its own (${given}), which it does not document`);
    if (mediaType(given) !== mediaType(documented))
      refuse(`${where}: content type ${given}, documented ${documented}`);
  } else {
    if (!isReply(reply)) refuse(`${where}: not a documented success status`);
    const parsed = answerSchema(reply)?.safeParse(body);
    if (parsed && !parsed.success)
      refuse(`${where}: does not fit its documented schema: ${parsed.error.message}`);
  }
  checkedAnswers.add(where);
};
