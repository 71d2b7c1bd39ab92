/** The programmatic API: start a sandbox from a test suite. */
export { type Config, type ConfigInput, resolveConfig } from './config.js';
export {
  createSandbox,
  type RunningSandbox,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
  version,
} from './sandbox.js';
