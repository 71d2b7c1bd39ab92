import { credentials } from './bank/tenants/credentials.js';
import { listensOnLoopback } from './http/exposure.js';
import { formatEvent } from './log.js';
import type { CataloguedEvent } from './log-catalogue.js';
import type { RunningSandbox } from './sandbox.js';

/**
 * What the CLI prints once it listens: where it is, where the state lives, and how to sign in. With
 * `--log-format json`, one JSON object (event `listening`) holding the same; `--quiet` keeps the URL only. The
 * fixture logins and keys are printed on purpose; the key sent to webhook receivers (`webhookAuthKey`) is not.
 */
export function banner(sandbox: RunningSandbox): string {
  const { config } = sandbox;
  const api = `${sandbox.url}/api/v1`;
  if (config.logFormat === 'json') return `${formatEvent(listening(sandbox), 'json')}\n`;
  if (config.quiet) return `banking-sandbox listening on ${api}\n`;
  const lines = [
    `banking-sandbox listening on ${api}`,
    `  address:  ${sandbox.listening}${listensOnLoopback(config.host) ? ' (this machine only)' : ' (open to the network)'}`,
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

/** The banner as one event. `message` says it as the text banner does, so a reader of either finds the URL. */
function listening(sandbox: RunningSandbox): CataloguedEvent<'listening'> {
  const { config, url } = sandbox;
  const message = `banking-sandbox listening on ${url}/api/v1`;
  const where = { message, url, api: `${url}/api/v1` };
  if (config.quiet) return { level: 'info', event: 'listening', fields: where, text: message };
  const fields = {
    ...where,
    listening: sandbox.listening,
    state: config.inMemory ? { inMemory: true, file: null } : { inMemory: false, file: config.data },
    control: `${url}/__sandbox`,
    controlTokenRequired: config.controlToken !== undefined,
    docs: `${url}/docs`,
    dashboard: `${url}/__sandbox/ui`,
    clients: credentials(sandbox.store).map(({ webhookAuthKey: _hidden, ...logins }) => logins),
  };
  return { level: 'info', event: 'listening', fields, text: message };
}
