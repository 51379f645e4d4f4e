import type { ReactNode } from 'react';
import { Dialog, DialogTrigger, Heading, Modal } from 'react-aria-components';
import { pendingProps, type PendingStyle } from './form-dialog';
import { Button, ErrorNotice } from './forms';

export interface ConfirmedWrite {
  isPending: boolean;
  error: unknown;
  mutateAsync: () => Promise<unknown>;
  reset: () => void;
}

/**
 * A button that asks before a destructive action: an alert dialog with the consequences, the
 * action's own button and Cancel (focused first, so Enter does not destroy by accident). The API's
 * refusal (403, 409) is shown inside the dialog, which stays open.
 */
export function ConfirmAction(props: {
  label: string;
  /** The trigger's accessible name, when its text alone does not say what it acts on. */
  ariaLabel?: string;
  /** The id of what the button acts on (a table cell), read after its name by screen readers. */
  describedBy?: string;
  title: ReactNode;
  children: ReactNode;
  confirmLabel: string;
  /** The write to run (a mutation without variables): its error is shown, and cleared when the dialog closes. */
  action: ConfirmedWrite;
  /** Keep the error of a failed try for when the dialog opens again. */
  keepError?: boolean;
  pendingStyle?: PendingStyle;
  variant?: 'danger' | 'secondary';
}) {
  const { action } = props;
  return (
    <DialogTrigger onOpenChange={(open) => !open && !props.keepError && action.reset()}>
      <Button variant={props.variant ?? 'danger'} aria-label={props.ariaLabel} aria-describedby={props.describedBy}>
        {props.label}
      </Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog" role="alertdialog">
          {({ close }) => (
            <>
              <Heading slot="title">{props.title}</Heading>
              {props.children}
              <ErrorNotice error={action.error} />
              <div className="row">
                <Button
                  variant="danger"
                  {...pendingProps(props.pendingStyle ?? 'pending', action.isPending)}
                  onPress={() => {
                    if (!action.isPending) void action.mutateAsync().then(close, () => undefined);
                  }}
                >
                  {props.confirmLabel}
                </Button>
                <Button variant="secondary" onPress={close} autoFocus>
                  Cancel
                </Button>
              </div>
            </>
          )}
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}
