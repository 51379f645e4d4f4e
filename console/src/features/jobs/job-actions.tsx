import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Button, ErrorNotice } from '../../ui/forms';
import { ReadOnlyNote, useCan } from '../../ui/permissions';
import { finished, isActive } from './job-status';
import { cancelJob, exportHref, type Job, jobKeys, retryJob } from './jobs.queries';

/** Cancel, retry (the failed targets, or all of a failed or cancelled job) and the three exports. */
export function JobActions({ job }: { job: Job }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const writer = useCan('data.write', job.projectId);
  const cancel = useMutation({
    mutationFn: () => cancelJob(job.id),
    onSuccess: ({ data }) => {
      queryClient.setQueryData(jobKeys.one(job.id), data);
      void queryClient.invalidateQueries({ queryKey: jobKeys.ofProject(job.projectId) });
    },
  });
  const retry = useMutation({
    mutationFn: (targets: 'failed' | 'all') => retryJob(job.id, targets),
    onSuccess: ({ data }) => {
      queryClient.setQueryData(jobKeys.one(data.id), data);
      void queryClient.invalidateQueries({ queryKey: jobKeys.ofProject(job.projectId) });
      void navigate({ to: '/console/jobs/$jobId', params: { jobId: data.id } });
    },
  });
  // failed, or not crawled because the job was cancelled: what `Retry failed targets` crawls again
  const hasFailures = job.progress.failed > 0 || job.errors.length > 0 || job.progress.succeeded < job.progress.total;
  // the API exports completed jobs only (409 JOB_NOT_COMPLETE otherwise)
  const exportable = job.status === 'completed' && !job.resultsPurgedAt;
  return (
    <section aria-label="Actions" className="job-actions">
      <div className="row">
        {writer.allowed && isActive(job.status) && (
          <Button variant="danger" isDisabled={cancel.isPending} onPress={() => cancel.mutate()}>
            Cancel job
          </Button>
        )}
        {writer.allowed && (
          <>
            <Button isDisabled={!finished(job) || !hasFailures || retry.isPending} onPress={() => retry.mutate('failed')}>
              Retry failed targets
            </Button>
            <Button
              variant="secondary"
              isDisabled={(job.status !== 'failed' && job.status !== 'cancelled') || retry.isPending}
              onPress={() => retry.mutate('all')}
            >
              Retry all targets
            </Button>
          </>
        )}
        {exportable && (
          <>
            <a className="button secondary" href={exportHref(job.id, 'csv')} download>
              Export CSV
            </a>
            <a className="button secondary" href={exportHref(job.id, 'json')} download>
              Export JSON
            </a>
            <a className="button secondary" href={exportHref(job.id, 'llm')} download>
              Export LLM
            </a>
          </>
        )}
      </div>
      <ReadOnlyNote can={writer} />
      {!finished(job) && <p className="muted">Exports and retries are available once the job has finished.</p>}
      {finished(job) && job.status !== 'completed' && (
        <p className="muted">Exports are for completed jobs: retry this one to get its results.</p>
      )}
      {finished(job) && !hasFailures && <p className="muted">Every target succeeded: nothing to retry.</p>}
      {job.status === 'completed' && hasFailures && (
        <p className="muted">Retry all targets is for failed or cancelled jobs; this one completed, so retry its failed targets.</p>
      )}
      <ErrorNotice error={cancel.error} title="The job could not be cancelled." />
      <ErrorNotice error={retry.error} title="The job could not be retried." />
    </section>
  );
}
