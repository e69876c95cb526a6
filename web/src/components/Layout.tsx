import { AppShell, Burger, Button, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink as RouterLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { currentSession, type Role, signOut as endSession } from '../api/session';

/** The menu, by role (DESIGN part 3): what each role may open. */
export const MENU: Array<{ to: string; label: string; roles: Role[] }> = [
  { to: '/dashboard', label: 'nav.dashboard', roles: ['ADMIN'] },
  { to: '/customers', label: 'nav.customers', roles: ['ADMIN', 'OPERATOR', 'COLLECTOR'] },
  { to: '/payments', label: 'nav.payments', roles: ['ADMIN', 'OPERATOR'] },
  { to: '/devices', label: 'nav.devices', roles: ['ADMIN', 'OPERATOR'] },
  { to: '/collections', label: 'nav.collections', roles: ['ADMIN', 'OPERATOR', 'COLLECTOR'] },
  { to: '/inventory', label: 'nav.inventory', roles: ['ADMIN', 'OPERATOR'] },
  { to: '/deals', label: 'nav.deals', roles: ['ADMIN', 'OPERATOR'] },
  { to: '/messages', label: 'nav.messages', roles: ['ADMIN', 'OPERATOR', 'COLLECTOR'] },
  { to: '/imports', label: 'nav.imports', roles: ['ADMIN'] },
  { to: '/feedback', label: 'nav.feedback', roles: ['ADMIN', 'OPERATOR', 'COLLECTOR'] },
  { to: '/users', label: 'nav.users', roles: ['ADMIN'] },
  { to: '/history', label: 'nav.history', roles: ['ADMIN'] },
];

export function Layout() {
  const { t } = useTranslation();
  const session = currentSession();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [opened, { toggle, close }] = useDisclosure();
  if (!session) return <Navigate to="/signin" replace state={{ from: location.pathname + location.search }} />;
  const signOut = () => {
    endSession();
    // what this user's pages fetched must not show to whoever signs in next in this tab (Back included)
    queryClient.clear();
    navigate('/signin', { replace: true });
  };
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.menu')} />
            <Text fw={700} component="span">
              {t('app.title')}
            </Text>
          </Group>
          <Group wrap="nowrap" gap="xs">
            <Text size="sm" visibleFrom="xs">
              {t('nav.signedInAs', { username: session.username, role: session.role })}
            </Text>
            <Button variant="default" size="xs" onClick={signOut}>
              {t('nav.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={t('nav.label')}>
        {MENU.filter((item) => item.roles.includes(session.role)).map((item) => (
          <NavLink key={item.to} component={RouterLink} to={item.to} label={t(item.label)} onClick={close} variant="filled" active={location.pathname.startsWith(item.to)} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>{mayOpen(session.role, location.pathname) ? <Outlet /> : <Forbidden />}</AppShell.Main>
    </AppShell>
  );
}

/** A page the menu does not offer this role, reached by a link or the address bar: not shown at all (the service would refuse its data anyway). */
export function mayOpen(role: Role, pathname: string): boolean {
  const item = MENU.find((m) => pathname === m.to || pathname.startsWith(`${m.to}/`));
  return !item || item.roles.includes(role);
}

function Forbidden() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('common.forbidden')}</PageTitle>
      <Text>{t('common.forbiddenHint')}</Text>
    </>
  );
}

export function PageTitle({ children }: { children: React.ReactNode }) {
  return (
    <Title order={1} size="h2" mb="md">
      {children}
    </Title>
  );
}
