/** Who did something, as the audit log records it. */
export interface Actor {
  clientId: string;
  email: string;
  /** Full name of the user, or the client's name for the API key pair. */
  name: string;
  role: string;
  ipAddress: string;
}

/** The person at the sandbox's controls (the control API, the dashboard), as the audit log records them. */
export function operator(clientId: string): Actor {
  return {
    clientId,
    email: 'operator@sandbox.local',
    name: 'Sandbox operator',
    role: 'Operator',
    ipAddress: '127.0.0.1',
  };
}
