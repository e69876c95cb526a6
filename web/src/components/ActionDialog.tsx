import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { compact, requiredErrors } from '../forms';
import { useDraft } from './draft';
import { NUMBER_INPUT, useAction } from './ui';

export interface Field {
  name: string;
  label: string;
  kind?: 'text' | 'number' | 'select' | 'date' | 'textarea' | 'password';
  options?: string[];
  required?: boolean;
  description?: string;
}

/**
 * A button opening a small form that makes one request: the API's message as a toast, its 400
 * messages under the fields, any other refusal (409 "Reference … is already used", 404) also in the
 * dialog, beside what was typed, until the next try. `confirm` makes it a destructive action that
 * says so before it runs. Values sent with a token the service refuses (it expired as they were
 * typed) come back in the dialog, unsent, once the same person has signed in again.
 */
export function ActionDialog<T>(props: {
  label: string;
  title?: string;
  fields: Field[];
  initial?: Record<string, string | number>;
  submitLabel?: string;
  confirm?: string;
  color?: string;
  variant?: string;
  disabled?: boolean;
  /** tells apart dialogs with the same title on one page (one per row): the one a kept draft belongs to */
  draftKey?: string;
  action: (values: Record<string, any>) => Promise<T>;
  success: (output: T) => string;
  invalidates?: unknown[][];
}) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure();
  const initial = Object.fromEntries(props.fields.map((f) => [f.name, props.initial?.[f.name] ?? '']));
  const required = props.fields.filter((f) => f.required).map((f) => f.name);
  const form = useForm({ initialValues: initial, validate: (values) => requiredErrors(values, required, t('common.required')) });
  // no password is kept in the browser's storage
  const kept = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([name]) => props.fields.find((f) => f.name === name)?.kind !== 'password'));
  const trigger = useRef<HTMLButtonElement>(null);
  // where the focus goes when the button is gone after the action (a deal deactivated, a call resolved):
  // the list it was in, else the page's heading, never the page's body, where the next Tab starts over
  const landing = useRef<HTMLElement | null>(null);
  // the values as they are now (e.g. preferences read after the page was drawn), each time it opens
  const start = () => {
    landing.current = trigger.current?.closest<HTMLElement>('[role=region][tabindex]') ?? document.querySelector<HTMLElement>('main h1');
    form.setValues(initial);
    form.clearErrors();
    mutation.reset();
    open();
  };
  // back from signing in: the dialog as it was when its session expired
  const send = useDraft([props.title ?? props.label, props.draftKey ?? ''].join('#'), (values) => {
    form.setValues({ ...initial, ...(values as Record<string, string | number>) });
    form.clearErrors();
    open();
  }, props.fields.length > 0 ? { opened, values: () => kept(form.getValues()) } : undefined);
  const mutation = useAction({
    form,
    // a dialog with no fields has nothing typed to keep
    action: (values: Record<string, any>) => (props.fields.length > 0 ? send(kept(values), () => props.action(compact(values))) : props.action(compact(values))),
    success: props.success,
    invalidates: props.invalidates,
    onDone: () => {
      close();
      form.reset();
      // after the dialog's own return of the focus (and its closing transition)
      setTimeout(() => {
        const to = landing.current;
        if (trigger.current?.isConnected || !to?.isConnected || (document.activeElement && document.activeElement !== document.body)) return;
        if (!to.hasAttribute('tabindex')) to.setAttribute('tabindex', '-1');
        to.focus();
      }, 400);
    },
  });
  return (
    <>
      <Button ref={trigger} onClick={start} color={props.color} variant={props.variant ?? 'light'} disabled={props.disabled} size="sm">
        {props.label}
      </Button>
      <Modal opened={opened} onClose={close} title={props.title ?? props.label}>
        <form onSubmit={form.onSubmit((v) => mutation.mutate(v))} noValidate>
          <Stack>
            {props.confirm && (
              <Alert color="red" role="alert">
                {props.confirm}
              </Alert>
            )}
            {mutation.error instanceof ApiError && mutation.error.status !== 400 && (
              <Alert color="red" role="alert">
                {mutation.error.message}
              </Alert>
            )}
            {props.fields.map((f, i) => {
              // the dialog opens on its first field (else on the × that closes it): a keyboard user types straight away
              const input = { label: f.label, description: f.description, withAsterisk: f.required, ...form.getInputProps(f.name), key: f.name, 'data-autofocus': i === 0 || undefined };
              switch (f.kind) {
                case 'number':
                  return <NumberInput {...input} {...NUMBER_INPUT} decimalScale={2} />;
                case 'select':
                  return <Select {...input} data={f.options ?? []} />;
                case 'textarea':
                  return <Textarea {...input} autosize minRows={2} />;
                case 'date':
                  return <TextInput {...input} type="date" />;
                case 'password':
                  return <TextInput {...input} type="password" autoComplete="new-password" />;
                default:
                  return <TextInput {...input} />;
              }
            })}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" color={props.color} loading={mutation.isPending}>
                {props.submitLabel ?? t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
