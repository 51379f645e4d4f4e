import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { ACTIONS, Table } from '../../ui/table';
import { AddEndpointDialog } from './add-endpoint-dialog';
import { EditEndpointDialog } from './edit-endpoint-dialog';
import { DeleteEndpoint, EndpointState, MaskedSecret, ToggleEndpoint } from './endpoint-controls';
import { RotateSecretDialog } from './rotate-secret-dialog';
import { type TestResult, TestOutcome } from './test-result';
import { testWebhook, type WebhookConfig, webhooksQuery } from './webhooks.queries';

/** The project's endpoints: one row per configuration (a URL and the event it receives). */
export function Endpoints({ projectId, canWrite }: { projectId: string; canWrite: boolean }) {
  const webhooks = useQuery(webhooksQuery(projectId));
  const [tested, setTested] = useState<TestResult | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const test = useMutation({
    mutationFn: async (config: WebhookConfig): Promise<TestResult> => {
      setTested(null);
      return { config, result: await testWebhook(projectId, config.id) };
    },
    onSuccess: setTested,
  });
  const configs = webhooks.data?.configs ?? [];
  return (
    <section aria-labelledby="endpoints-heading">
      <div className="page-head">
        <h2 id="endpoints-heading">Endpoints</h2>
        {canWrite && <AddEndpointDialog projectId={projectId} />}
      </div>
      {webhooks.isLoading && <Loading what="endpoints" />}
      <ErrorNotice error={webhooks.error} />
      {webhooks.data && configs.length === 0 && (
        <EmptyState title="No endpoints yet">
          <p>
            {canWrite
              ? 'Add one to be told when jobs finish, schedules fire or tracked products change.'
              : 'An owner, admin or developer can add one.'}
          </p>
        </EmptyState>
      )}
      {configs.length > 0 && (
        <Table
          wrap="table-wrap contained"
          caption="Webhook endpoints of this project"
          captionHidden
          columns={['Endpoint', 'Event', 'State', 'Secret', canWrite && ACTIONS]}
        >
          {configs.map((c) => (
            <tr key={c.id}>
              <td id={`webhook-${c.id}`}>
                {c.name && <strong className="block">{c.name}</strong>}
                <span className="mono url">{c.url}</span>
                <span className="muted mono block">{c.id}</span>
              </td>
              <td>
                <code>{c.triggerAction}</code>
              </td>
              <td>
                <EndpointState config={c} />
              </td>
              <td>
                <MaskedSecret config={c} />
              </td>
              {canWrite && (
                <td>
                  <div className="actions-wrap">
                    <Button
                      variant="secondary"
                      aria-describedby={`webhook-${c.id}`}
                      isPending={test.isPending && test.variables?.id === c.id}
                      onPress={() => test.mutate(c)}
                    >
                      Send test
                    </Button>
                    <EditEndpointDialog projectId={projectId} config={c} />
                    <ToggleEndpoint projectId={projectId} config={c} onError={setActionError} />
                    <RotateSecretDialog projectId={projectId} config={c} />
                    <DeleteEndpoint projectId={projectId} config={c} />
                  </div>
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
      <ErrorNotice error={actionError} />
      <ErrorNotice error={test.error} title="The test could not be sent." />
      <div role="status" className="test-result">
        {test.isPending && <p className="muted">Sending a test delivery to {test.variables?.url}…</p>}
        {tested && <TestOutcome tested={tested} />}
      </div>
    </section>
  );
}
