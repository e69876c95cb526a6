import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { Alert, CloseButton, createTheme, type CSSVariablesResolver, MantineProvider, Modal, Notification, Text, Title } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { onSessionExpired } from './api/session';
import { Layout } from './components/Layout';
import i18n from './i18n';

// networkMode 'always': with the browser offline a request is tried and fails at once, with words; by default it
// waited paused, its button spinning, and went by itself when the connection came back (a save the operator had
// given up on, and typed again, sent twice)
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, networkMode: 'always' }, mutations: { networkMode: 'always' } } });

/** Each page is its own chunk: the sign-in route loads only what it needs. */
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

const router = createBrowserRouter([
  { path: '/signin', lazy: page(() => import('./pages/signin/SignInPage')) },
  {
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/customers" replace /> },
      { path: 'dashboard', lazy: page(() => import('./pages/dashboard/DashboardPage')) },
      { path: 'customers', lazy: page(() => import('./pages/customers/CustomersPage')) },
      { path: 'customers/:customerid', lazy: page(() => import('./pages/customers/CustomerPage')) },
      { path: 'payments', lazy: page(() => import('./pages/payments/PaymentsPage')) },
      { path: 'devices', lazy: page(() => import('./pages/devices/DevicesPage')) },
      { path: 'collections', lazy: page(() => import('./pages/collections/CollectionsPage')) },
      { path: 'inventory', lazy: page(() => import('./pages/inventory/InventoryPage')) },
      { path: 'deals', lazy: page(() => import('./pages/deals/DealsPage')) },
      { path: 'users', lazy: page(() => import('./pages/users/UsersPage')) },
      { path: 'messages', lazy: page(() => import('./pages/messages/MessagesPage')) },
      { path: 'imports', lazy: page(() => import('./pages/imports/ImportsPage')) },
      { path: 'feedback', lazy: page(() => import('./pages/feedback/FeedbackPage')) },
      { path: 'history', lazy: page(() => import('./pages/history/HistoryPage')) },
      { path: '*', lazy: page(() => import('./pages/NotFoundPage')) },
    ],
  },
]);

onSessionExpired((message) => {
  queryClient.clear();
  // signing in again comes back to the page (and its filters) the person was on
  const { pathname, search } = router.state.location;
  void router.navigate('/signin', { state: { notice: message, from: pathname + search } });
});

// Darker shades than the defaults: every text and control keeps a 4.5:1 contrast (axe, WCAG AA).
const close = { 'aria-label': i18n.t('common.close') };
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  autoContrast: true,
  // people who ask their system for less motion get dialogs and toasts without fades
  respectReducedMotion: true,
  defaultRadius: 'sm',
  // icon-only buttons get a name screen readers can say
  components: {
    // a 255-character name or reference with no space wraps where it must, rather than pushing the page sideways on a phone
    Modal: Modal.extend({ defaultProps: { closeButtonProps: close }, styles: { title: { overflowWrap: 'anywhere', minWidth: 0 } } }),
    Alert: Alert.extend({ styles: { body: { minWidth: 0 }, message: { overflowWrap: 'anywhere' } } }),
    Title: Title.extend({ styles: { root: { overflowWrap: 'anywhere' } } }),
    Text: Text.extend({ styles: { root: { overflowWrap: 'break-word' } } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: close } }),
    CloseButton: CloseButton.extend({ defaultProps: close }),
  },
});
// Light buttons and alerts one shade paler than Mantine's (0 at rest, 1 under the pointer): Mantine's hover shade 2
// leaves red-9 text at 3.8:1 and blue-9 at 4.0:1, so a hovered button failed the contrast it had at rest.
const paleLight = (colors: string[]) =>
  Object.fromEntries(colors.flatMap((c) => [[`--mantine-color-${c}-light`, `var(--mantine-color-${c}-0)`], [`--mantine-color-${c}-light-hover`, `var(--mantine-color-${c}-1)`]]));
const contrast: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-primary-color-light-color': 'var(--mantine-color-blue-9)',
    ...paleLight(Object.keys(t.colors)),
  },
  dark: {},
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={contrast}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
