import type { RouteContract } from '../contract/kit.js';
import answerExamples from './answer-examples.json' with { type: 'json' };

type JsonObject = Record<string, unknown>;

/**
 * The sandbox's own answers, one per operation and status (`npm run docs` writes them, from the contract tour): each
 * JSON answer's `example`, so that a mock server fed the document answers what the sandbox would.
 */
const EXAMPLES: Record<string, Record<string, unknown> | undefined> = answerExamples;

/** Puts the sandbox's own answer beside each JSON answer of `op` in `result` (its responses), where there is one. */
export function withExamples(op: RouteContract, result: JsonObject): void {
  for (const [status, response] of Object.entries(result)) {
    const json = (response as { content?: Record<string, JsonObject> }).content?.['application/json'];
    const example = EXAMPLES[op.operationId]?.[status];
    if (json && example !== undefined) json.example = example;
  }
}
