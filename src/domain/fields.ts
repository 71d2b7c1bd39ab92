import * as z from 'zod';
import { canonicalId } from './ids.js';

/**
 * The longest text any field takes, in characters. The bank states no length for its text fields, so a value it
 * would take must pass here too: this is far past any name, address, narration or reference, and only keeps one
 * field from filling the state (listed in docs/api.md, "Rules the sandbox adds").
 */
export const MAX_TEXT = 4096;

/**
 * A required text field: any non-empty string, up to `MAX_TEXT`, kept as sent. The bank states no rule on what a
 * text holds, so a narration of spaces, or one with spaces around it, is taken as it is (contract, section 1).
 */
export const text = () => z.string().min(1).max(MAX_TEXT);

/**
 * A field that names a record by its id: like `text()`, and a UUID in any case names the same record (ids are
 * compared case-insensitively; the store keys them in lower case).
 */
export const idText = () => text().overwrite(canonicalId);
