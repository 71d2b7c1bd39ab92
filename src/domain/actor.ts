/** Who did something, as the audit log records it. */
export interface Actor {
  clientId: string;
  email: string;
  /** Full name of the user, or the client's name for the API key pair. */
  name: string;
  role: string;
  ipAddress: string;
}
