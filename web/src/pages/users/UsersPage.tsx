import { Group, Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, ok } from '../../api/client';
import { ActionDialog } from '../../components/ActionDialog';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, PAGE_SIZE, Pager, StatusBadge, useUrlFilters } from '../../components/ui';

const ROLES = ['ADMIN', 'OPERATOR', 'COLLECTOR', 'PROVIDER'];

export default function UsersPage() {
  const { t } = useTranslation();
  const { page, set } = useUrlFilters([] as const);
  const users = useQuery({ queryKey: ['users', page], queryFn: () => ok(api.GET('/finance/users', { params: { query: { page, limit: PAGE_SIZE } } })), placeholderData: keepPreviousData });
  const said = (r: unknown) => (r as { message?: string })?.message ?? t('common.saved');
  return (
    <Stack>
      <PageTitle>{t('nav.users')}</PageTitle>
      <Group>
        <ActionDialog
          label={t('users.create')}
          variant="filled"
          fields={[
            { name: 'username', label: t('users.username'), required: true },
            { name: 'password', label: t('users.password'), kind: 'password', required: true, description: t('users.passwordHint') },
            { name: 'role', label: t('users.role'), kind: 'select', options: ROLES, required: true },
          ]}
          submitLabel={t('users.create')}
          action={(v) => ok(api.POST('/finance/users/create', { body: { username: v.username, password: v.password, role: v.role } }))}
          success={(u) => t('users.created', { username: u.username })}
          invalidates={[['users']]}
        />
      </Group>
      <ErrorNote error={users.error} />
      <DataTable
        caption={t('nav.users')}
        empty={t('common.none')}
        head={[t('users.id'), t('users.username'), t('users.role'), t('users.state'), t('users.actions')]}
        rows={(users.data?.items ?? []).map((u) => [
          u.id,
          u.username,
          u.role,
          <StatusBadge status={u.active ? 'ACTIVE' : 'DISABLED'} label={u.active ? t('users.active') : t('users.disabled')} />,
          <Group gap={4} wrap="nowrap">
            {u.active ? (
              <ActionDialog
                label={t('users.disable')}
                title={t('users.disableTitle', { username: u.username })}
                color="red"
                confirm={t('users.disableConfirm', { username: u.username })}
                fields={[]}
                submitLabel={t('users.disable')}
                action={() => ok(api.POST('/finance/users/disable', { body: { id: u.id } }))}
                success={said}
                invalidates={[['users']]}
              />
            ) : (
              <ActionDialog
                label={t('users.enable')}
                title={t('users.enableTitle', { username: u.username })}
                fields={[]}
                submitLabel={t('users.enable')}
                action={() => ok(api.POST('/finance/users/enable', { body: { id: u.id } }))}
                success={said}
                invalidates={[['users']]}
              />
            )}
            <ActionDialog
              label={t('users.resetPassword')}
              title={t('users.resetTitle', { username: u.username })}
              fields={[{ name: 'password', label: t('users.password'), kind: 'password', required: true, description: t('users.passwordHint') }]}
              action={(v) => ok(api.POST('/finance/users/password', { body: { id: u.id, password: v.password } }))}
              success={said}
            />
          </Group>,
        ])}
      />
      <Pager total={users.data?.total} page={page} onChange={(p) => set({ page: p })} />
    </Stack>
  );
}
