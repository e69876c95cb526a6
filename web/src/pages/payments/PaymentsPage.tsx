import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ok, type Schemas } from '../../api/client';
import { CustomerPicker } from '../../components/CustomerPicker';
import { ExportButton } from '../../components/ExportButton';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, PAGE_SIZE, Pager, Section, StatusBadge, useAction, useFormat, useUrlFilters } from '../../components/ui';

type Unmatched = Schemas['UnmatchedResponse'];

function AssignDialog({ item, onClose }: { item: Unmatched; onClose: () => void }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [customerid, setCustomerid] = useState<number | null>(null);
  const [error, setError] = useState<string | undefined>();
  const assign = useAction({
    action: (id: number) => ok(api.POST('/finance/amlogs/assign', { body: { transactionid: item.transactionid, customerid: id } })),
    success: (r) => (r as { message?: string }).message ?? t('common.saved'),
    invalidates: [['unmatched'], ['customers'], ['customer']],
    onDone: onClose,
    // already applied or assigned meanwhile: nothing is left to assign here (the toast says why)
    onConflict: onClose,
  });
  return (
    <Modal opened onClose={onClose} title={t('payments.assignTitle', { id: item.transactionid })}>
      <Stack>
        <Text size="sm">{t('payments.assignHint', { amount: fmt.money(item.amount), tag: item.tag })}</Text>
        <CustomerPicker label={t('payments.customer')} value={customerid} onChange={setCustomerid} error={error} autofocus />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button loading={assign.isPending} onClick={() => (customerid ? assign.mutate(customerid) : setError(t('payments.chooseCustomer')))}>
            {t('payments.assign')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function Reconcile() {
  const { t } = useTranslation();
  const form = useForm({ initialValues: { reference: '' } });
  const [result, setResult] = useState<string | null>(null);
  const recon = useAction({
    form,
    action: (v: { reference: string }) => ok(api.POST('/finance/payments/recon', { body: v })),
    success: (r) => `${r.status}: ${r.message}`,
    invalidates: [['unmatched']],
    onDone: (r) => setResult(`${r.reference}: ${r.status} — ${r.message}`),
  });
  return (
    <Section title={t('payments.reconcile')}>
      <form
        onSubmit={form.onSubmit((v) => {
          // the answer shown is this reference's, never the one before it
          setResult(null);
          recon.mutate(v);
        })}
        noValidate
      >
        <Group align="end">
          <TextInput label={t('payments.reference')} {...form.getInputProps('reference')} style={{ flex: 1, minWidth: 180 }} />
          <Button type="submit" loading={recon.isPending}>
            {t('payments.reconcile')}
          </Button>
        </Group>
      </form>
      {result && (
        <Text size="sm" mt="xs" role="status">
          {result}
        </Text>
      )}
    </Section>
  );
}

function Lookup() {
  const { t } = useTranslation();
  const form = useForm({ initialValues: { startdate: '', enddate: '' } });
  const [result, setResult] = useState<string | null>(null);
  const lookup = useAction({
    form,
    action: (v: { startdate: string; enddate: string }) => ok(api.POST('/finance/amlogs/lookup', { body: v })),
    success: (r) => t('payments.lookupResult', r),
    invalidates: [['unmatched']],
    onDone: (r) => setResult(t('payments.lookupResult', r)),
  });
  return (
    <Section title={t('payments.lookup')}>
      <form onSubmit={form.onSubmit((v) => lookup.mutate(v))} noValidate>
        <Group align="end">
          <TextInput type="date" label={t('payments.startdate')} {...form.getInputProps('startdate')} />
          <TextInput type="date" label={t('payments.enddate')} {...form.getInputProps('enddate')} />
          <Button type="submit" loading={lookup.isPending}>
            {t('payments.lookup')}
          </Button>
          <ExportButton file="payments.csv" query={{ startdate: form.values.startdate, enddate: form.values.enddate }} />
        </Group>
      </form>
      {result && (
        <Text size="sm" mt="xs" role="status">
          {result}
        </Text>
      )}
    </Section>
  );
}

function Recent() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [customerid, setCustomerid] = useState<number | null>(null);
  const recent = useQuery({
    queryKey: ['customer', customerid, 'payments'],
    enabled: customerid !== null,
    queryFn: () => ok(api.POST('/finance/payments/recent', { body: { customerid: customerid!, limit: 20 } })),
  });
  return (
    <Section title={t('payments.recent')}>
      <CustomerPicker label={t('payments.customer')} value={customerid} onChange={setCustomerid} />
      {customerid !== null && (
        <DataTable
          empty={t('common.none')}
          head={[t('payments.date'), t('payments.amount'), t('payments.reference'), t('payments.type'), t('payments.narration')]}
          rows={(recent.data ?? []).map((p) => [fmt.time(p.createdat), fmt.money(p.amount), p.reference, p.type, p.narration])}
        />
      )}
    </Section>
  );
}

export default function PaymentsPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { page, set } = useUrlFilters([] as const);
  const [assigning, setAssigning] = useState<Unmatched | null>(null);
  // the dialog is unmounted on close, so Mantine cannot give the focus back: the Assign button that opened it gets it,
  // or, when its row went with the payment, the list itself (a keyboard user keeps their place, not the page's top)
  const opener = useRef<HTMLElement | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const closeAssign = () => {
    setAssigning(null);
    requestAnimationFrame(() => (opener.current?.isConnected ? opener.current : list.current?.querySelector<HTMLElement>('[role=region]'))?.focus());
  };
  const unmatched = useQuery({
    queryKey: ['unmatched', page],
    queryFn: () => ok(api.GET('/finance/amlogs/unmatched', { params: { query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack>
      <PageTitle>{t('nav.payments')}</PageTitle>
      <Section title={t('payments.unmatched')}>
        <ErrorNote error={unmatched.error} />
        <div ref={list}>
          <DataTable
            empty={t('payments.noneUnmatched')}
            head={[t('payments.received'), t('payments.transaction'), t('payments.tag'), t('payments.amount'), t('payments.status'), t('payments.reason'), '']}
            rows={(unmatched.data?.items ?? []).map((u) => [
              fmt.time(u.receivedat),
              u.transactionid,
              u.tag,
              fmt.money(u.amount),
              <StatusBadge status={u.status} />,
              u.reason ?? '—',
              <Button
                size="xs"
                onClick={(e) => {
                  opener.current = e.currentTarget;
                  setAssigning(u);
                }}
                aria-label={t('payments.assignOne', { id: u.transactionid })}
              >
                {t('payments.assign')}
              </Button>,
            ])}
          />
        </div>
        <Pager total={unmatched.data?.total} page={page} onChange={(p) => set({ page: p })} />
      </Section>
      {assigning && <AssignDialog item={assigning} onClose={closeAssign} />}
      <Reconcile />
      <Lookup />
      <Recent />
    </Stack>
  );
}
