import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../api/client';

export type WebhookConfig = Schemas['WebhookConfig'];
export type WebhookInput = Schemas['WebhookConfigInput'];
export type WebhookEvent = WebhookConfig['triggerAction'];
export type Delivery = Schemas['WebhookDelivery'];
export type DeliveryStatus = Delivery['status'];

export const EVENTS: ReadonlyArray<{ value: WebhookEvent; label: string }> = [
  { value: 'job.completed', label: 'Job completed' },
  { value: 'job.failed', label: 'Job failed' },
  { value: 'schedule.triggered', label: 'Schedule triggered' },
  { value: 'product.changed', label: 'Product changed' },
];

/** Query keys of webhooks: a project's configurations, and pages of its delivery log (all under one prefix). */
export const webhookKeys = {
  configs: (projectId: string) => ['webhooks', projectId] as const,
  deliveries: (projectId: string) => ['webhook-deliveries', projectId] as const,
  deliveriesPage: (projectId: string, filter: { status?: DeliveryStatus; event?: WebhookEvent; offset: number }) =>
    ['webhook-deliveries', projectId, filter.status, filter.event, filter.offset] as const,
};

export const webhooksQuery = (projectId: string) =>
  queryOptions({
    queryKey: webhookKeys.configs(projectId),
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
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhookKeys.configs(projectId) }),
  });
}

/** Configs with the one whose id is given changed (all sent back as inputs, secrets included). */
export const withChanged = (configs: WebhookConfig[], id: string, change: (c: WebhookInput) => WebhookInput) =>
  configs.map((c) => (c.id === id ? change(asInput(c)) : asInput(c)));

export const testWebhook = async (projectId: string, webhookId: string) =>
  (await unwrap(api.POST('/v1/key/projects/{projectId}/webhooks/test', { params: { path: { projectId } }, body: { webhookId } }))).data;

export const fetchDeliveries = (
  projectId: string,
  query: { status?: DeliveryStatus; event?: WebhookEvent; offset: number; limit: number },
) => unwrap(api.GET('/v1/key/projects/{projectId}/webhooks/deliveries', { params: { path: { projectId }, query } }));

export const resendDelivery = (projectId: string, deliveryId: string) =>
  unwrap(api.POST('/v1/key/projects/{projectId}/webhooks/deliveries/{deliveryId}/resend', { params: { path: { projectId, deliveryId } } }));

/** Re-arms the failed deliveries created since `from` (at most 1,000 per call; the answer says if more are left). */
export const replayFailed = async (projectId: string, from: string) =>
  (await unwrap(api.POST('/v1/key/projects/{projectId}/webhooks/replay', { params: { path: { projectId } }, body: { from } }))).data;
