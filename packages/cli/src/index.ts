export { commands, type AdminDeps } from './commands';
