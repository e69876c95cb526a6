import { Anchor, Button, Group, SegmentedControl, Select, SimpleGrid, Card, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, ok } from '../../api/client';
import { currentSession } from '../../api/session';
import { ActionDialog } from '../../components/ActionDialog';
import { ExportButton } from '../../components/ExportButton';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, PAGE_SIZE, Pager, StatusBadge, useAction, useFormat, useUrlFilters } from '../../components/ui';

type CallStatus = 'PENDING' | 'CALLED' | 'RESOLVED';

export default function CollectionsPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const session = currentSession()!;
  const collector = session.role === 'COLLECTOR';
  // a collector updates only the calls assigned to them (DESIGN part 10): the others' get no buttons, only "Take" when free
  const mayUpdate = (call: { assignedto: number | null }) => !collector || call.assignedto === session.id;
  const { values, page, set } = useUrlFilters(['status', 'who'] as const);
  // a collector starts on their own calls; others on everyone's
  const mine = values.who ? values.who === 'mine' : collector;
  const query = { page, limit: PAGE_SIZE, status: (values.status || undefined) as CallStatus | undefined, assignedto: mine ? session.id : undefined };
  const calls = useQuery({ queryKey: ['calls', query], queryFn: () => ok(api.GET('/finance/collections/calls', { params: { query } })), placeholderData: keepPreviousData });
  const stats = useQuery({ queryKey: ['calls', 'stats'], enabled: session.role !== 'OPERATOR', queryFn: () => ok(api.GET('/finance/collections/stats')) });
  const collectors = useQuery({ queryKey: ['users', 'collectors'], enabled: session.role === 'ADMIN', queryFn: () => ok(api.GET('/finance/users', { params: { query: { limit: 100 } } })) });
  const generate = useAction({ action: () => ok(api.POST('/finance/collections/generate')), success: (r) => (r as { message?: string }).message ?? t('common.saved'), invalidates: [['calls']] });
  const claim = useAction({
    action: (callid: number) => ok(api.POST('/finance/collections/assign', { body: { callid, userid: session.id } })),
    success: () => t('collections.claimed'),
    invalidates: [['calls']],
  });
  const collectorOptions = (collectors.data?.items ?? []).filter((u) => u.role === 'COLLECTOR').map((u) => u.username + ' #' + u.id);

  return (
    <Stack>
      <PageTitle>{t('nav.collections')}</PageTitle>
      <Group>
        <ExportButton file="collections.csv" />
      </Group>
      {stats.data && (
        <SimpleGrid cols={{ base: 3 }}>
          {(['PENDING', 'CALLED', 'RESOLVED'] as const).map((s) => (
            <Card withBorder key={s} padding="sm">
              <Text size="xs" c="dimmed">
                {s}
              </Text>
              <Text fw={700} size="xl">
                {stats.data[s]}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <Group align="end">
        <SegmentedControl
          value={mine ? 'mine' : 'all'}
          onChange={(v) => set({ who: v })}
          data={[
            { value: 'mine', label: t('collections.mine') },
            { value: 'all', label: t('collections.all') },
          ]}
        />
        <Select label={t('collections.status')} data={['PENDING', 'CALLED', 'RESOLVED']} value={values.status || null} onChange={(v) => set({ status: v ?? '' })} clearable w={160} />
        {session.role !== 'OPERATOR' && (
          <Button variant="light" onClick={() => generate.mutate(undefined)} loading={generate.isPending}>
            {t('collections.generate')}
          </Button>
        )}
      </Group>
      <ErrorNote error={calls.error} />
      <DataTable
        caption={t('nav.collections')}
        empty={t('collections.none')}
        // the call's buttons next to the name: on a collector's phone the last column is a long sideways scroll away
        head={[t('customers.fullname'), '', t('customers.telephone'), t('collections.daysoverdue'), t('collections.arrears'), t('collections.status'), t('collections.promisedate'), t('collections.notes')]}
        rows={(calls.data?.items ?? []).map((c) => [
          <Anchor component={Link} to={`/customers/${c.customerid}`}>
            {c.fullname}
          </Anchor>,
          <Group gap={4} wrap="nowrap">
            {c.status !== 'RESOLVED' && c.assignedto === null && collector && (
              <Button size="xs" variant="default" onClick={() => claim.mutate(c.callid)}>
                {t('collections.claim')}
              </Button>
            )}
            {c.status !== 'RESOLVED' && session.role === 'ADMIN' && (
              <ActionDialog
                label={t('collections.assign')}
                draftKey={String(c.callid)}
                fields={[{ name: 'user', label: t('collections.collector'), kind: 'select', options: collectorOptions, required: true }]}
                action={(v) => ok(api.POST('/finance/collections/assign', { body: { callid: c.callid, userid: Number(String(v.user).split('#').pop()) } }))}
                success={() => t('collections.assigned')}
                invalidates={[['calls']]}
              />
            )}
            {c.status === 'PENDING' && mayUpdate(c) && (
              <ActionDialog
                label={t('collections.called')}
                draftKey={String(c.callid)}
                fields={[
                  { name: 'notes', label: t('collections.notes'), kind: 'textarea', required: true },
                  { name: 'promisedate', label: t('collections.promisedate'), kind: 'date' },
                ]}
                submitLabel={t('collections.called')}
                action={(v) => ok(api.POST('/finance/collections/update', { body: { callid: c.callid, status: 'CALLED', notes: v.notes, promisedate: v.promisedate } }))}
                success={() => t('collections.updated')}
                invalidates={[['calls']]}
              />
            )}
            {c.status !== 'RESOLVED' && mayUpdate(c) && (
              <ActionDialog
                label={t('collections.resolved')}
                draftKey={String(c.callid)}
                fields={[
                  { name: 'notes', label: t('collections.notes'), kind: 'textarea', required: true },
                  { name: 'promisedate', label: t('collections.promisedate'), kind: 'date' },
                ]}
                submitLabel={t('collections.resolved')}
                action={(v) => ok(api.POST('/finance/collections/update', { body: { callid: c.callid, status: 'RESOLVED', notes: v.notes, promisedate: v.promisedate } }))}
                success={() => t('collections.updated')}
                invalidates={[['calls']]}
              />
            )}
          </Group>,
          <Anchor href={`tel:${c.telephone}`}>{c.telephone}</Anchor>,
          c.daysoverdue,
          fmt.money(c.amountinarrears),
          <StatusBadge status={c.status} />,
          fmt.date(c.promisedate),
          c.notes ?? '—',
        ])}
      />
      <Pager total={calls.data?.total} page={page} onChange={(p) => set({ page: p })} />
    </Stack>
  );
}
