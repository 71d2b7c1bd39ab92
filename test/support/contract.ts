import { apiRouteList } from '../../src/api/routes.js';
import type { AnswerCheck } from '../../src/http/mount.js';
import type { Reply } from '../../src/http/route.js';
import { answerSchema, errorEnvelope } from '../../src/http/wire.js';
import { failures } from '../../src/openapi/document.js';

/** `operationId status` of every answer checked in this test file. */
export const checkedAnswers = new Set<string>();

const isReply = (value: unknown): value is Reply =>
  typeof value === 'object' && value !== null && 'kind' in value;

function refuse(reason: string): never {
  // The sandbox of the tests logs nothing, and an error thrown here becomes a bare 500: say why on stderr.
  process.stderr.write(`answer check: ${reason}\n`);
  throw new Error(`answer check: ${reason}`);
}

/**
 * Every answer of a defined route, held against what its document says: a success status must be one the route
 * documents and its body must parse with the documented (strict) schema; an error status must be one the
 * document lists for it, with the error envelope. The in-process sandbox of the tests runs with it.
 */
export const answerCheck: AnswerCheck = (route, status, body) => {
  const where = `${route.operationId} ${status}`;
  const reply = route.responses[status];
  // A body of its own at an error status (health's 503) is held against its documented schema, like a success.
  if (status >= 400 && !isReply(reply)) {
    if (!failures(route, apiRouteList.includes(route)).has(status))
      refuse(`${where}: the document lists no ${status} for this route (${JSON.stringify(body)})`);
    const parsed = errorEnvelope().safeParse(body);
    if (!parsed.success) refuse(`${where}: not the error envelope: ${parsed.error.message}`);
  } else {
    if (!isReply(reply)) refuse(`${where}: not a documented success status`);
    const parsed = answerSchema(reply)?.safeParse(body);
    if (parsed && !parsed.success)
      refuse(`${where}: does not fit its documented schema: ${parsed.error.message}`);
  }
  checkedAnswers.add(where);
};
