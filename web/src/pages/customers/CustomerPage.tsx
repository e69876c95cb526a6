import { Card, Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { api, ok } from '../../api/client';
import { currentSession } from '../../api/session';
import { ActionDialog } from '../../components/ActionDialog';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, Loading, Section, StatusBadge, useFormat } from '../../components/ui';
import { MessagesTable } from '../messages/MessagesPage';

const COMMAND_POLL_MS = 2000;

const message = (fallback: string) => (r: unknown) => (r as { message?: string } | undefined)?.message ?? fallback;

function Figure({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={600} component="div">
        {value}
      </Text>
    </div>
  );
}


export default function CustomerPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const customerid = Number(useParams().customerid);
  const session = currentSession();
  const role = session?.role ?? 'COLLECTOR';
  const operator = role === 'ADMIN' || role === 'OPERATOR';
  const key = ['customer', customerid];
  const customer = useQuery({ queryKey: key, queryFn: () => ok(api.GET('/finance/customers/{customerid}', { params: { path: { customerid } } })) });
  const payments = useQuery({ queryKey: [...key, 'payments'], queryFn: () => ok(api.POST('/finance/payments/recent', { body: { customerid, limit: 50 } })) });
  // a command waits for the lock platform a second or two (longer while it is down): read again until none is PENDING,
  // so that a lock, an unlock or a repossession shows DELIVERED without a reload
  const commands = useQuery({
    queryKey: [...key, 'commands'],
    enabled: operator,
    queryFn: () => ok(api.GET('/finance/device/commands', { params: { query: { customerid, limit: 20 } } })),
    refetchInterval: (q) => (q.state.data?.items.some((k) => k.status === 'PENDING') ? COMMAND_POLL_MS : false),
  });
  const calls = useQuery({ queryKey: [...key, 'calls'], queryFn: () => ok(api.GET('/finance/collections/calls', { params: { query: { customerid, limit: 20 } } })) });
  // user names for "Assigned to": only an ADMIN may list users; others see their own name and ids
  const users = useQuery({ queryKey: ['users', 'all'], enabled: role === 'ADMIN', queryFn: () => ok(api.GET('/finance/users', { params: { query: { limit: 100 } } })) });
  const preferences = useQuery({ queryKey: [...key, 'preferences'], enabled: operator, queryFn: () => ok(api.GET('/finance/customers/preferences', { params: { query: { customerid } } })) });
  const feedback = useQuery({ queryKey: [...key, 'feedback'], queryFn: () => ok(api.GET('/finance/feedback', { params: { query: { customerid, limit: 20 } } })) });
  const messages = useQuery({ queryKey: [...key, 'messages'], queryFn: () => ok(api.GET('/finance/messages', { params: { query: { customerid, limit: 20 } } })) });
  const history = useQuery({ queryKey: [...key, 'history'], enabled: role === 'ADMIN', queryFn: () => ok(api.GET('/finance/audit', { params: { query: { customerid, limit: 50 } } })) });

  if (customer.isLoading) return <Loading />;
  // a customer that does not exist (or an id that is not one) still gets the page's heading, then the service's message
  if (!customer.data)
    return (
      <Stack>
        <PageTitle>{t('customers.unavailable')}</PageTitle>
        <ErrorNote error={customer.error} />
      </Stack>
    );
  const c = customer.data;
  const d = c.deal;
  const paidShare = d.totalamount > 0 ? Math.min(100, (d.amountpaid / d.totalamount) * 100) : 0;
  const refresh = [key, ['customers']];
  const assignee = (userid: number | null) => {
    if (userid === null) return '—';
    if (userid === session?.id) return session.username;
    return users.data?.items.find((u) => u.id === userid)?.username ?? t('customers.userNumber', { id: userid });
  };
  const id = { customerid };

  return (
    <Stack>
      <PageTitle>{c.fullname}</PageTitle>
      <Card withBorder>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <Figure label={t('customers.status')} value={<StatusBadge status={c.status} />} />
          <Figure label={t('customers.dealStatus')} value={<StatusBadge status={d.status} />} />
          <Figure label={t('customers.balance')} value={fmt.money(d.balance)} />
          <Figure label={t('customers.amountpaid')} value={fmt.money(d.amountpaid)} />
          <Figure label={t('customers.nextpaymentdate')} value={fmt.date(d.nextpaymentdate)} />
          <Figure label={t('customers.deal')} value={d.dealname} />
          <Figure label={t('customers.monthly')} value={fmt.money(d.monthly)} />
          <Figure label={t('customers.salesstage')} value={c.salesstage} />
          <Figure label={t('customers.telephone')} value={c.telephone} />
          <Figure label={t('customers.payg')} value={c.payg} />
          <Figure label={t('customers.imei')} value={c.imei} />
          <Figure label={t('customers.accountnumber')} value={c.accountnumber} />
        </SimpleGrid>
        <Progress value={paidShare} mt="md" size="lg" aria-label={t('customers.progress', { paid: fmt.money(d.amountpaid), total: fmt.money(d.totalamount) })} />
        <Text size="sm" c="dimmed" mt={4}>
          {t('customers.progress', { paid: fmt.money(d.amountpaid), total: fmt.money(d.totalamount) })}
        </Text>
      </Card>

      {operator && (
        <Group gap="xs">
          <ActionDialog
            label={t('customers.loadPayment')}
            variant="filled"
            fields={[
              { name: 'amount', label: t('payments.amount'), kind: 'number', required: true },
              { name: 'reference', label: t('payments.reference'), required: true },
              { name: 'narration', label: t('payments.narration'), required: true },
            ]}
            action={(v) => ok(api.POST('/finance/payments/load', { body: { ...id, amount: v.amount, reference: v.reference, narration: v.narration } }))}
            success={message(t('common.saved'))}
            invalidates={refresh}
          />
          <ActionDialog
            label={t('customers.tempUnlock')}
            fields={[{ name: 'hours', label: t('customers.hours'), kind: 'number', required: true }]}
            submitLabel={t('customers.tempUnlock')}
            action={(v) => ok(api.POST('/finance/device/unlock-temp', { body: { ...id, hours: v.hours } }))}
            success={message(t('common.saved'))}
            invalidates={refresh}
          />
          <ActionDialog
            label={t('customers.bonusDays')}
            fields={[{ name: 'days', label: t('customers.days'), kind: 'number', required: true }]}
            submitLabel={t('customers.bonusDays')}
            action={(v) => ok(api.POST('/finance/customers/bonus', { body: { ...id, days: v.days } }))}
            success={message(t('common.saved'))}
            invalidates={refresh}
          />
          <ActionDialog
            label={t('customers.syncDevice')}
            fields={[]}
            submitLabel={t('customers.syncDevice')}
            action={() => ok(api.POST('/finance/device/sync-status', { body: id }))}
            success={message(t('common.saved'))}
            invalidates={refresh}
          />
          <ActionDialog
            label={t('customers.approve')}
            fields={[]}
            submitLabel={t('customers.approve')}
            disabled={c.status !== 'PENDING'}
            action={() => ok(api.POST('/finance/customers/approve', { body: id }))}
            success={() => t('customers.approved')}
            invalidates={refresh}
          />
          <ActionDialog
            label={t('customers.salesstage')}
            fields={[{ name: 'salesstage', label: t('customers.salesstage'), kind: 'select', options: ['ENROLLMENT', 'VERIFICATION', 'DELIVERY', 'ACTIVE', 'CLOSED'], required: true }]}
            initial={{ salesstage: c.salesstage }}
            action={(v) => ok(api.POST('/finance/customers/salesstage', { body: { ...id, salesstage: v.salesstage } }))}
            success={() => t('common.saved')}
            invalidates={refresh}
          />
          <ActionDialog
            label={t('customers.repossess')}
            color="red"
            confirm={t('customers.repossessConfirm', { name: c.fullname })}
            disabled={c.status === 'REPOSSESSED'}
            fields={[{ name: 'reason', label: t('customers.reason'), kind: 'textarea', required: true }]}
            submitLabel={t('customers.repossess')}
            action={(v) => ok(api.POST('/finance/contracts/repossess', { body: { ...id, reason: v.reason } }))}
            success={message(t('common.saved'))}
            invalidates={refresh}
          />
        </Group>
      )}

      <Section title={t('customers.payments')}>
        <DataTable
          empty={t('common.none')}
          head={[t('payments.date'), t('payments.amount'), t('payments.reference'), t('payments.type'), t('payments.narration')]}
          rows={(payments.data ?? []).map((p) => [fmt.time(p.createdat), fmt.money(p.amount), p.reference, p.type, p.narration])}
        />
      </Section>

      {operator && (
        <Section title={t('customers.commands')}>
          <DataTable
            empty={t('common.none')}
            head={[t('devices.created'), t('devices.action'), t('devices.status'), t('devices.attempts'), t('devices.lasterror'), t('devices.reason')]}
            rows={(commands.data?.items ?? []).map((k) => [fmt.time(k.createdat), k.action, <StatusBadge status={k.status} />, k.attempts, k.lasterror ?? '—', k.reason])}
          />
        </Section>
      )}

      <Section title={t('customers.calls')}>
        <DataTable
          empty={t('collections.none')}
          head={[t('payments.date'), t('collections.status'), t('customers.assignedto'), t('collections.daysoverdue'), t('collections.arrears'), t('collections.promisedate'), t('collections.notes')]}
          rows={(calls.data?.items ?? []).map((k) => [
            fmt.time(k.createdat),
            <StatusBadge status={k.status} />,
            assignee(k.assignedto),
            k.daysoverdue,
            fmt.money(k.amountinarrears),
            fmt.date(k.promisedate),
            k.notes ?? '—',
          ])}
        />
      </Section>

      <Section title={t('messages.section')}>
        {preferences.data && (
          <Text size="sm" mb="xs">
            {t('messages.currentPreferences', { language: preferences.data.language, optout: preferences.data.smsoptout ? t('messages.optoutYes') : t('messages.optoutNo') })}
          </Text>
        )}
        <MessagesTable items={messages.data?.items ?? []} />
        {operator && (
          <Group mt="xs">
            <ActionDialog
              label={t('messages.sendSms')}
              fields={[{ name: 'text', label: t('messages.text'), kind: 'textarea', required: true, description: t('messages.sendHint') }]}
              submitLabel={t('messages.sendSms')}
              action={(v) => ok(api.POST('/finance/messages/send', { body: { ...id, text: v.text } }))}
              success={() => t('messages.queued')}
              invalidates={[[...key, 'messages'], ['messages']]}
            />
            <ActionDialog
              label={t('messages.preferences')}
              fields={[
                { name: 'language', label: t('messages.language'), kind: 'select', options: ['en', 'sw'], required: true },
                { name: 'smsoptout', label: t('messages.optout'), kind: 'select', options: ['no', 'yes'], required: true },
              ]}
              initial={preferences.data ? { language: preferences.data.language, smsoptout: preferences.data.smsoptout ? 'yes' : 'no' } : { smsoptout: 'no' }}
              action={(v) => ok(api.POST('/finance/customers/preferences', { body: { ...id, language: v.language, smsoptout: v.smsoptout === 'yes' } }))}
              success={() => t('messages.preferencesSaved')}
              invalidates={[[...key, 'preferences']]}
            />
          </Group>
        )}
      </Section>

      <Section title={t('customers.feedback')}>
        <DataTable
          empty={t('common.none')}
          head={[t('payments.date'), t('feedback.category'), t('feedback.message')]}
          rows={(feedback.data?.items ?? []).map((f) => [fmt.time(f.createdat), f.category, f.message])}
        />
        <Group mt="xs">
          <ActionDialog
            label={t('feedback.add')}
            fields={[
              { name: 'message', label: t('feedback.message'), kind: 'textarea', required: true },
              { name: 'category', label: t('feedback.category'), kind: 'select', options: ['PAYMENT', 'DEVICE', 'SERVICE', 'COMPLAINT', 'OTHER'] },
            ]}
            action={(v) => ok(api.POST('/finance/feedback/create', { body: { ...id, message: v.message, category: v.category } }))}
            success={() => t('common.saved')}
            invalidates={[[...key, 'feedback']]}
          />
        </Group>
      </Section>

      {role === 'ADMIN' && (
        <Section title={t('customers.history')}>
          <DataTable
            empty={t('common.none')}
            head={[t('history.at'), t('history.user'), t('history.what'), t('history.record')]}
            rows={(history.data?.items ?? []).map((h) => [fmt.time(h.at), h.username ?? '—', t(`history.routes.${h.route}`, { defaultValue: `${h.method} ${h.route}` }), h.recordid ?? '—'])}
          />
        </Section>
      )}
    </Stack>
  );
}
