import { Anchor, Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, ok } from '../../api/client';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, PAGE_SIZE, Pager, useFormat, useUrlFilters } from '../../components/ui';

export default function FeedbackPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { page, set } = useUrlFilters([] as const);
  const feedback = useQuery({ queryKey: ['feedback', page], queryFn: () => ok(api.GET('/finance/feedback', { params: { query: { page, limit: PAGE_SIZE } } })), placeholderData: keepPreviousData });
  return (
    <Stack>
      <PageTitle>{t('nav.feedback')}</PageTitle>
      <ErrorNote error={feedback.error} />
      <DataTable
        caption={t('nav.feedback')}
        empty={t('common.none')}
        head={[t('payments.date'), t('payments.customer'), t('feedback.category'), t('feedback.message')]}
        rows={(feedback.data?.items ?? []).map((f) => [
          fmt.time(f.createdat),
          <Anchor component={Link} to={`/customers/${f.customerid}`}>
            {t('feedback.customer', { id: f.customerid })}
          </Anchor>,
          f.category,
          f.message,
        ])}
      />
      <Pager total={feedback.data?.total} page={page} onChange={(p) => set({ page: p })} />
    </Stack>
  );
}
