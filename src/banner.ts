import { credentials } from './control/clients/credentials.js';
import type { RunningSandbox } from './sandbox.js';

/** What the CLI prints once it listens: where it is, where the state lives, and how to sign in. */
export function banner(sandbox: RunningSandbox): string {
  const { config } = sandbox;
  if (config.quiet) return `banking-sandbox listening on ${sandbox.url}/api/v1\n`;
  const lines = [
    `banking-sandbox listening on ${sandbox.url}/api/v1`,
    `  state:    ${config.inMemory ? 'in memory (nothing is written)' : config.data}`,
    `  control:  ${sandbox.url}/__sandbox${config.controlToken ? ' (x-sandbox-token required)' : ''}`,
    `  docs:     ${sandbox.url}/docs`,
    `  dashboard: ${sandbox.url}/__sandbox/ui${config.controlToken ? '?token=<control token>' : ''}`,
    '',
  ];
  for (const c of credentials(sandbox.store)) {
    lines.push(`  ${c.name}`);
    lines.push(`    sign in:      ${c.email} / ${c.password}`);
    for (const m of c.members) lines.push(`    ${m.role.padEnd(13)} ${m.email} / ${m.password}`);
    lines.push(`    SECRET_KEY:   ${c.secretKey}`);
    lines.push(`    x-api-key:    ${c.publicKey}`);
    for (const b of c.businesses) {
      lines.push(
        `    businessId:   ${b.id} (${b.businessName}${b.isApproved ? `, account ${b.accountNumber}` : ', not approved'})`,
      );
    }
  }
  lines.push('');
  return `${lines.join('\n')}\n`;
}
