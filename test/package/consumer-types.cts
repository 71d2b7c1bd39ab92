// A CommonJS project's TypeScript: `npm run typecheck` checks that the package's types reach a `require()` of it
// (module NodeNext resolves this file with the "require" condition).
import bank = require('banking-sandbox');

const options: bank.SandboxOptions = { bulkItemDelay: 5, tokenTtl: 60, quiet: true };
const started: Promise<bank.RunningSandbox> = bank.startSandbox(options);
const isConfigError = (error: unknown): error is bank.ConfigError => error instanceof bank.ConfigError;
export = { started, isConfigError };
