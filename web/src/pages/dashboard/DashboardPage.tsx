import { BarChart, DonutChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Card, ColorSwatch, Group, List, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, ok } from '../../api/client';
import { ExportButton } from '../../components/ExportButton';
import { PageTitle } from '../../components/Layout';
import { ErrorNote, Loading, Section, useFormat } from '../../components/ui';
import { formatPercent } from '../../format';

const COLOURS: Record<string, string> = { LOCKED: 'red.6', UNLOCKED: 'teal.6', PAID_OFF: 'blue.6', REPOSSESSED: 'gray.7', PENDING: 'yellow.6', CALLED: 'orange.6', RESOLVED: 'green.6', APPROVED: 'teal.6' };

function Figure({ label, value, hint }: { label: string; value: string | number; hint?: string }) {
  return (
    // a figure wraps rather than being cut off: money to the cent is long (UGX 9,770,004.83)
    <Card withBorder padding="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Card>
  );
}


const slices = (counts: Record<string, number>) => Object.entries(counts).map(([name, value]) => ({ name, value, color: COLOURS[name] ?? 'gray.5' }));

/**
 * Counts by status as a donut, with a list naming each status and its count beside it: the slices
 * differ only by colour and their labels are bare numbers, which neither a screen reader nor a
 * colour-blind reader can match to a status. With nothing counted yet, it says so.
 */
function StatusDonut({ counts }: { counts: Record<string, number> }) {
  const { t } = useTranslation();
  const data = slices(counts).filter((s) => s.value > 0);
  if (data.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('common.none')}
      </Text>
    );
  return (
    <Group justify="center" wrap="wrap">
      <DonutChart data={data} withLabels withLabelsLine={false} />
      <List listStyleType="none" spacing={4}>
        {data.map((s) => (
          <List.Item key={s.name} icon={<ColorSwatch color={`var(--mantine-color-${s.color.replace('.', '-')})`} size={12} aria-hidden />}>
            {s.name}: {s.value}
          </List.Item>
        ))}
      </List>
    </Group>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const portfolio = useQuery({ queryKey: ['dashboard', 'portfolio'], queryFn: () => ok(api.GET('/finance/reports/portfolio')) });
  const perDay = useQuery({ queryKey: ['dashboard', 'per-day'], queryFn: () => ok(api.GET('/finance/reports/payments-per-day', { params: { query: { days: 30 } } })) });
  const customers = useQuery({ queryKey: ['dashboard', 'customers'], queryFn: () => ok(api.GET('/finance/customers/status-summary')) });
  const calls = useQuery({ queryKey: ['dashboard', 'calls'], queryFn: () => ok(api.GET('/finance/collections/stats')) });
  if (portfolio.isLoading) return <Loading />;
  const p = portfolio.data;
  return (
    <Stack>
      <PageTitle>{t('nav.dashboard')}</PageTitle>
      <Group>
        <ExportButton file="portfolio.csv" />
      </Group>
      {/* each read says when it failed, where its figures or chart would be: a blank is not "nothing" */}
      <ErrorNote error={portfolio.error} />
      <ErrorNote error={customers.error} />
      {p && (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
          <Figure label={t('dashboard.par30')} value={formatPercent(p.par30)} hint={fmt.money(p.par30balance)} />
          <Figure label={t('dashboard.collectionRate')} value={formatPercent(p.collection.rate)} hint={t('dashboard.range', { from: fmt.date(p.collection.startdate), to: fmt.date(p.collection.enddate) })} />
          <Figure label={t('dashboard.activeDeals')} value={p.activedeals} />
          <Figure label={t('dashboard.outstanding')} value={fmt.money(p.outstandingbalance)} />
          <Figure label={t('dashboard.arrears')} value={fmt.money(p.amountinarrears)} />
          <Figure label={t('dashboard.repossessed')} value={fmt.money(p.repossessedbalance)} hint={t('dashboard.deals', { count: p.repossesseddeals })} />
        </SimpleGrid>
      )}
      {customers.data && (
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          {Object.entries(customers.data).map(([status, count]) => (
            <Figure key={status} label={t('dashboard.customersStatus', { status })} value={count} />
          ))}
        </SimpleGrid>
      )}
      <Section title={t('dashboard.paymentsPerDay')}>
        <ErrorNote error={perDay.error} />
        {perDay.data && (
          <BarChart
            h={240}
            data={perDay.data.days.map((d) => ({ day: d.date.slice(5), amount: d.amount, payments: d.payments }))}
            dataKey="day"
            series={[{ name: 'amount', label: t('dashboard.amount'), color: 'teal.6' }]}
            valueFormatter={(v) => fmt.money(v)}
            // room for the longest amount on the axis, so its labels are not cut
            yAxisProps={{ width: 110 }}
            tickLine="y"
          />
        )}
      </Section>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Section title={t('dashboard.dealsByStatus')}>{p && <StatusDonut counts={p.dealsbystatus} />}</Section>
        <Section title={t('dashboard.callsByState')}>
          <ErrorNote error={calls.error} />
          {calls.data && <StatusDonut counts={calls.data} />}
        </Section>
      </SimpleGrid>
    </Stack>
  );
}
