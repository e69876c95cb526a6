import { Group, Stack, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, ok } from '../../api/client';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, PAGE_SIZE, Pager, useFormat, useUrlFilters } from '../../components/ui';

/** The audit log (ADMIN): who changed what and when, filtered by user, record, route and dates, all kept in the URL. */
export default function HistoryPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { values, page, set } = useUrlFilters(['userid', 'record', 'route', 'startdate', 'enddate'] as const);
  const query = {
    page,
    limit: PAGE_SIZE,
    userid: values.userid ? Number(values.userid) : undefined,
    record: values.record || undefined,
    route: values.route || undefined,
    startdate: values.startdate || undefined,
    enddate: values.enddate || undefined,
  };
  const log = useQuery({ queryKey: ['audit', query], queryFn: () => ok(api.GET('/finance/audit', { params: { query } })), placeholderData: keepPreviousData });
  const filter = (name: keyof typeof values, label: string, type = 'text') => (
    <TextInput label={label} type={type} defaultValue={values[name]} onBlur={(e) => set({ [name]: e.currentTarget.value.trim() })} onKeyDown={(e) => e.key === 'Enter' && set({ [name]: e.currentTarget.value.trim() })} />
  );
  return (
    <Stack>
      <PageTitle>{t('nav.history')}</PageTitle>
      <Group align="end">
        {filter('userid', t('history.userid'))}
        {filter('record', t('history.record'))}
        {filter('route', t('history.route'))}
        {filter('startdate', t('payments.startdate'), 'date')}
        {filter('enddate', t('payments.enddate'), 'date')}
      </Group>
      <ErrorNote error={log.error} />
      <DataTable
        caption={t('nav.history')}
        empty={t('common.none')}
        head={[t('history.at'), t('history.user'), t('history.what'), t('history.route'), t('history.record'), t('history.status')]}
        rows={(log.data?.items ?? []).map((h) => [
          fmt.time(h.at),
          h.username ?? '—',
          t(`history.routes.${h.route}`, { defaultValue: h.method }),
          h.route,
          h.recordid ?? '—',
          h.status,
        ])}
      />
      <Pager total={log.data?.total} page={page} onChange={(p) => set({ page: p })} />
    </Stack>
  );
}
