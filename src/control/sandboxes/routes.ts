import {
  createSandboxContract,
  deleteSandboxContract,
  listSandboxesContract,
} from '../../contract/control/sandboxes.js';
import { DONE } from '../../contract/kit.js';
import { ApiError } from '../../domain/errors.js';
import type { Route } from '../../http/route.js';
import type { ControlHooks, SandboxesHooks } from '../hooks.js';
import { type ControlRuntime, route } from '../runtime.js';

/** The registry, at the root; not inside an isolated sandbox: they are made, listed and deleted at the root only. */
function registry(control: ControlHooks): SandboxesHooks {
  if (control.sandboxId === null) return control.sandboxes;
  throw new ApiError(
    404,
    `Isolated sandboxes are made, listed and deleted at the root (/__sandbox/sandboxes), not inside one (${control.sandboxId})`,
  );
}

/** `/sandboxes`: isolated sandboxes, each a world of its own under `/sandboxes/{id}`. */
export const sandboxesRoutes: Route<ControlRuntime>[] = [
  route(createSandboxContract, async ({ c, control, body }) => {
    const made = await registry(control).create(body);
    // URLs by the name the caller reached the sandbox by: a compose service's, a published port's.
    const origin = new URL(c.req.url).origin;
    return {
      status: 201,
      data: {
        id: made.id,
        apiUrl: `${origin}${made.apiPath}`,
        controlUrl: `${origin}${made.controlPath}`,
        createdAt: made.createdAt,
        persistent: made.persistent,
      },
    };
  }),
  route(listSandboxesContract, ({ control }) => ({ data: registry(control).list() })),
  route(deleteSandboxContract, ({ control, params }) => {
    registry(control).remove(params.id);
    return DONE;
  }),
];
