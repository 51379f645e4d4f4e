import { type ReactNode, useId } from 'react';
import { Dialog, DialogTrigger, Form, Heading, Modal } from 'react-aria-components';
import { Button, ErrorNotice } from './forms';

/**
 * How a button shows that its action is in flight: `pending` (react-aria's pending state, which
 * keeps the focus on the button), `disabled`, or `none` (the button stays as it is, so the focus
 * stays in the dialog, and a second press is ignored).
 */
export type PendingStyle = 'pending' | 'disabled' | 'none';

export const pendingProps = (style: PendingStyle, isPending: boolean) =>
  style === 'pending' ? { isPending } : style === 'disabled' ? { isDisabled: isPending } : {};

interface FormDialogProps {
  /** The button that opens the dialog. */
  trigger: ReactNode;
  title: ReactNode;
  submitLabel: string;
  /** A submit while nothing is in flight; `close` closes the dialog (for a save with nothing more to show). */
  onSubmit: (close: () => void) => void;
  isPending: boolean;
  pendingStyle?: PendingStyle;
  /** The form cannot be sent as it is (the submit button is disabled). */
  isSubmitDisabled?: boolean;
  /** Why the submit button is disabled, or what pressing it will do: shown beside it, and its description. */
  submitNote?: ReactNode;
  /** The API's refusal, shown above the buttons; the dialog stays open. */
  error?: unknown;
  errorTitle?: string;
  onOpenChange?: (open: boolean) => void;
  className?: string;
  /** `aria` (the default): the API validates, and nothing native blocks the submit that resends a corrected form. */
  validationBehavior?: 'aria' | 'native';
  /** What a save returned, once there is something to show (a secret shown once): replaces the form. */
  done?: { title: ReactNode; content: (close: () => void) => ReactNode } | null;
  children: ReactNode;
}

/**
 * A form in a modal dialog (react-aria: focus kept inside, Escape and outside clicks close it):
 * the title, the fields, the API's error, the submit button and Cancel. Every create, edit and
 * rotate of the console is one of these, so they look and behave alike.
 */
export function FormDialog(props: FormDialogProps) {
  const { pendingStyle = 'pending' } = props;
  const noteId = useId();
  const submitProps = { ...pendingProps(pendingStyle, props.isPending), ...(props.isSubmitDisabled ? { isDisabled: true } : {}) };
  return (
    <DialogTrigger onOpenChange={props.onOpenChange}>
      {props.trigger}
      <Modal className="modal" isDismissable>
        <Dialog className={props.className ?? 'dialog'}>
          {({ close }) =>
            props.done ? (
              <>
                <Heading slot="title">{props.done.title}</Heading>
                {props.done.content(close)}
              </>
            ) : (
              <Form
                onSubmit={(e) => {
                  e.preventDefault();
                  if (!props.isPending) props.onSubmit(close);
                }}
                validationBehavior={props.validationBehavior ?? 'aria'}
              >
                <Heading slot="title">{props.title}</Heading>
                {props.children}
                <ErrorNotice error={props.error} title={props.errorTitle} />
                <div className="row">
                  <Button type="submit" {...submitProps} aria-describedby={props.submitNote ? noteId : undefined}>
                    {props.submitLabel}
                  </Button>
                  <Button variant="secondary" onPress={close}>
                    Cancel
                  </Button>
                </div>
                {props.submitNote && (
                  <div id={noteId} className="submit-note">
                    {props.submitNote}
                  </div>
                )}
              </Form>
            )
          }
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}
