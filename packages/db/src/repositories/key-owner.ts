import { sql } from 'kysely';

/**
 * Whether a key's owner (joined as `u`) is an account user, for `effectiveKeyScope`: users made
 * by the admin CLI have no email and no password (and no membership). Either one counts, so a
 * user who could sign in never passes for an operator-made one (fail closed).
 */
export const OWNER_SIGNS_IN = sql<boolean>`(u.email is not null or u.password_hash is not null)`.as('ownerSignsIn');
