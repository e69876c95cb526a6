import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { compact, requiredErrors } from '../forms';
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
 * says so before it runs.
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
  action: (values: Record<string, any>) => Promise<T>;
  success: (output: T) => string;
  invalidates?: unknown[][];
}) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure();
  const initial = Object.fromEntries(props.fields.map((f) => [f.name, props.initial?.[f.name] ?? '']));
  const required = props.fields.filter((f) => f.required).map((f) => f.name);
  const form = useForm({ initialValues: initial, validate: (values) => requiredErrors(values, required, t('common.required')) });
  // the values as they are now (e.g. preferences read after the page was drawn), each time it opens
  const start = () => {
    form.setValues(initial);
    form.clearErrors();
    mutation.reset();
    open();
  };
  const mutation = useAction({
    form,
    action: (values: Record<string, any>) => props.action(compact(values)),
    success: props.success,
    invalidates: props.invalidates,
    onDone: () => {
      close();
      form.reset();
    },
  });
  return (
    <>
      <Button onClick={start} color={props.color} variant={props.variant ?? 'light'} disabled={props.disabled} size="sm">
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
