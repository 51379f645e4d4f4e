import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../api/client';

export type WebhookConfig = Schemas['WebhookConfig'];
export type WebhookInput = Schemas['WebhookConfigInput'];
export type WebhookEvent = WebhookConfig['triggerAction'];

export const EVENTS: ReadonlyArray<{ value: WebhookEvent; label: string }> = [
  { value: 'job.completed', label: 'Job completed' },
  { value: 'job.failed', label: 'Job failed' },
  { value: 'schedule.triggered', label: 'Schedule triggered' },
  { value: 'product.changed', label: 'Product changed' },
];

export const webhooksQuery = (projectId: string) =>
  queryOptions({
    queryKey: ['webhooks', projectId],
    queryFn: async () =>
      (await unwrap(api.GET('/v1/key/projects/{projectId}/webhooks', { params: { path: { projectId }, query: { limit: 1 } } }))).data,
  });

/**
 * A config as the PATCH takes it back unchanged. The secret must travel back too: a config sent
 * without one gets a newly generated secret (that is how a rotation starts).
 */
export const asInput = (c: WebhookConfig): WebhookInput => ({
  id: c.id,
  name: c.name,
  url: c.url,
  triggerAction: c.triggerAction,
  enabled: c.enabled,
  secret: c.secret,
});

/**
 * The PATCH replaces every configuration of the project at once, so each change starts from the
 * configs as the server has them now (read afresh, not from a possibly stale cache) and sends all
 * of them back with the one change applied.
 */
export function useReplaceWebhooks(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: (configs: WebhookConfig[]) => WebhookInput[]) => {
      const current = await queryClient.fetchQuery({ ...webhooksQuery(projectId), staleTime: 0 });
      const { data } = await unwrap(
        api.PATCH('/v1/key/projects/{projectId}/webhooks', {
          params: { path: { projectId } },
          body: { configs: change(current.configs) },
        }),
      );
      return data.configs;
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['webhooks', projectId] }),
  });
}
