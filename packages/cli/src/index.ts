export { adminDeps, commands, type AdminDeps } from './commands';
export { userCommands, userTable, type UserAdminDeps, type UserListing } from './user-commands';
export type { Announcing, ChangeBroadcast } from './announce';
