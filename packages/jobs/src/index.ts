export * from './job-body.schema';
export * from './job-resource';
export * from './job.service';
export * from './reconciler';
export * from './job-progress';
export * from './schedule-cron';
export * from './schedule.schemas';
export * from './schedule-runner';
