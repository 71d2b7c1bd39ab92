import * as z from 'zod';

/** The three roles of every client, by name. */
export const roleName = z.enum(['Admin', 'Manager', 'Viewer']);
export type RoleName = z.infer<typeof roleName>;

/**
 * What a route touches, for the role rules: `settings` is `/clients/settings/*`, `member-admin` is member
 * management (inviting members), `business` is everything else.
 */
export type Area = 'business' | 'settings' | 'member-admin';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The role rules of the sandbox: Admin may do everything; Manager everything but settings and member
 * management; Viewer only reads.
 */
export function permits(role: RoleName, area: Area, method: string): boolean {
  if (role === 'Admin') return true;
  if (role === 'Manager') return area === 'business';
  return READ_METHODS.has(method) && area !== 'settings';
}
