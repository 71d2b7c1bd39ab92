// A CommonJS project's test file: it loads the package with require() (Node 20.19+ loads ESM that way) and drives
// it. Run by test/e2e/package.test.ts from a folder whose node_modules/banking-sandbox links to the project.
const bank = require('banking-sandbox');

async function main() {
  const sandbox = await bank.startSandbox();
  const health = await fetch(`${sandbox.url}/__sandbox/health`);
  await sandbox.close();
  const refused = await bank.startSandbox({ bulkItemDelayMs: 5 }).catch((error) => error);
  const report = {
    exports: Object.keys(bank).sort(),
    health: health.status,
    closed: await fetch(`${sandbox.url}/__sandbox/health`).then(
      () => false,
      () => true,
    ),
    refused: {
      name: refused.name,
      message: refused.message,
      status: refused.status,
      isConfigError: refused instanceof bank.ConfigError,
      isSandboxError: refused instanceof bank.SandboxError,
    },
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
