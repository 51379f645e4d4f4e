import type { ReactNode } from 'react';
import { Dialog, DialogTrigger, Heading, Modal } from 'react-aria-components';
import { Button, ErrorNotice } from '../../ui/forms';

/**
 * A button that asks before a destructive action: an alert dialog with the consequences, the
 * action's own button and Cancel (focused first, so Enter does not destroy by accident). The API's
 * refusal (403, 409) is shown inside the dialog, which stays open.
 */
export function ConfirmButton(props: {
  label: string;
  /** The id of what the button acts on (a table cell), read after its name by screen readers. */
  describedBy?: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  isPending: boolean;
  error: unknown;
  onOpenChange?: (open: boolean) => void;
  variant?: 'danger' | 'secondary';
}) {
  return (
    <DialogTrigger onOpenChange={props.onOpenChange}>
      <Button variant={props.variant ?? 'danger'} aria-describedby={props.describedBy}>
        {props.label}
      </Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog" role="alertdialog">
          {({ close }) => (
            <>
              <Heading slot="title">{props.title}</Heading>
              {props.children}
              <ErrorNotice error={props.error} />
              <div className="row">
                <Button variant="danger" isPending={props.isPending} onPress={() => void props.onConfirm().then(close, () => undefined)}>
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
