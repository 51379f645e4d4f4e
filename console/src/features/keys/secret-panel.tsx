import { Button } from '../../ui/forms';
import { SecretField } from '../../ui/secret-field';

/** A curl line to try the key, with the secret masked (it is shown in full only in the field above it). */
const curlSnippet = (projectId: string) =>
  `curl ${window.location.origin}/v1/key/projects/${projectId}/jobs -H "Authorization: Bearer $CRAWL_API_KEY"`;

/** A new key's secret, shown this once, with a line to try it and `Done` (focused, so Enter closes the dialog). */
export function SecretPanel({ secret, projectId, onDone }: { secret: string; projectId: string; onDone: () => void }) {
  return (
    <div className="secret">
      <p>Copy the key now: it is shown this once, and only its hash is kept.</p>
      <SecretField secret={secret} label="Secret" copyLabel="Copy key" />
      <p>
        Try it (with the key in <code>CRAWL_API_KEY</code>):
      </p>
      <pre className="snippet">
        <code>{`export CRAWL_API_KEY=${secret.slice(0, 13)}…\n${curlSnippet(projectId)}`}</code>
      </pre>
      <Button onPress={onDone} autoFocus>
        Done
      </Button>
    </div>
  );
}
