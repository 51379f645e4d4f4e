import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useProjectOfPage } from '../../ui/current-project';
import { EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { ReadOnlyNote, useCan } from '../../ui/permissions';
import { ACTIONS, Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { CreateKeyDialog } from './create-key-dialog';
import { isLive, keysQuery } from './keys.queries';
import { RevokeKey } from './revoke-key';
import { RotateKeyDialog } from './rotate-key-dialog';

export function KeysPage() {
  const { projectId } = useParams({ strict: false }) as { projectId: string };
  useProjectOfPage(projectId);
  const keys = useQuery(keysQuery(projectId));
  // a viewer holds keys.mine only: they see and revoke keys they made before, and create or rotate none
  const creator = useCan('keys.own', projectId);
  return (
    <>
      <div className="page-head">
        <h1>API keys</h1>
        {creator.allowed && <CreateKeyDialog projectId={projectId} />}
      </div>
      <p className="muted">Keys authenticate your scripts and integrations to this project. A read-only key may only make GET requests.</p>
      <ReadOnlyNote can={creator} />
      {keys.isLoading && <Loading what="keys" />}
      <ErrorNotice error={keys.error} />
      {keys.data && keys.data.length === 0 && (
        <EmptyState title="No keys yet">
          <p>
            {creator.allowed
              ? 'Create one to call the API from your code.'
              : 'Ask a developer, admin or owner of this organization for a key.'}
          </p>
        </EmptyState>
      )}
      {keys.data && keys.data.length > 0 && (
        <Table
          caption="API keys of this project"
          captionHidden
          columns={['Label', 'Key', 'Scope', 'Created by', 'Last used', 'Expires', 'Status', ACTIONS]}
        >
          {keys.data.map((k) => (
            <tr key={k.id}>
              <td>{k.label || <span className="muted">(no label)</span>}</td>
              <td className="mono">{k.prefix}…</td>
              <td>
                {k.scope === 'read' ? 'Read only' : k.effectiveScope === 'read' ? 'Read only (its creator is a viewer now)' : 'Full access'}
              </td>
              <td>{k.createdByEmail ?? 'operator'}</td>
              <td>
                <DateTime value={k.lastUsedAt} />
              </td>
              <td>
                <DateTime value={k.expiresAt} />
              </td>
              <td>
                {isLive(k) ? (
                  k.revokedAt ? (
                    <>
                      Until <DateTime value={k.revokedAt} />
                    </>
                  ) : (
                    'Active'
                  )
                ) : (
                  'Revoked'
                )}
              </td>
              <td className="actions">
                {isLive(k) && (
                  <>
                    {creator.allowed && <RotateKeyDialog keyRow={k} projectId={projectId} />}
                    <RevokeKey keyRow={k} projectId={projectId} />
                  </>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
