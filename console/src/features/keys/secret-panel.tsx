import { Button } from '../../ui/forms';
import { CopyButton, SecretField } from '../../ui/secret-field';

/**
 * The lines to try the key, with the whole secret in them: they are shown only while the secret
 * itself is (this once, right after it was made), so what is pasted works as it is.
 */
export const trySnippet = (secret: string, projectId: string) =>
  `export CRAWL_API_KEY='${secret}'\ncurl ${window.location.origin}/v1/key/projects/${projectId}/jobs -H "Authorization: Bearer $CRAWL_API_KEY"`;

/** A new key's secret, shown this once, with the lines to try it and `Done` (focused, so Enter closes the dialog). */
export function SecretPanel({ secret, projectId, onDone }: { secret: string; projectId: string; onDone: () => void }) {
  const snippet = trySnippet(secret, projectId);
  return (
    <div className="secret">
      <p>Copy the key now: it is shown this once, and only its hash is kept.</p>
      <SecretField secret={secret} label="Secret" copyLabel="Copy key" />
      <p>Try it in a shell (these lines hold the key itself):</p>
      <pre className="snippet">
        <code>{snippet}</code>
      </pre>
      <CopyButton text={snippet} label="Copy commands" />
      <Button onPress={onDone} autoFocus>
        Done
      </Button>
    </div>
  );
}
