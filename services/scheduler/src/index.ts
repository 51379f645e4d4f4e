export { startScheduler, type SchedulerHandle } from './main';
export { loadSchedulerConfig, type SchedulerConfig } from './config';
