import type { Job, JobStatus } from './jobs.queries';

/** Each job status and its badge, in lifecycle order (typed by the API's enum: a status it adds fails the type-check here). */
const STATUS_BADGE: Record<JobStatus, 'ok' | 'warn' | 'bad' | ''> = {
  queued: '',
  running: 'warn',
  completed: 'ok',
  failed: 'bad',
  cancelled: '',
};
export const JOB_STATUSES = Object.keys(STATUS_BADGE) as JobStatus[];
export const statusBadge = (status: JobStatus) => `badge ${STATUS_BADGE[status]}`.trim();
export const isActive = (status: JobStatus) => status === 'queued' || status === 'running';
export const isJobStatus = (v: string | undefined): v is JobStatus => !!v && v in STATUS_BADGE;
/** A job that has finished (completed, failed or cancelled): its exports and retries are open. */
export const finished = (job: Job) => !isActive(job.status);
