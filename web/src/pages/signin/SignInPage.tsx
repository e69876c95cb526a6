import { Alert, Button, Container, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { api, ok } from '../../api/client';
import { useQueryClient } from '@tanstack/react-query';
import { saveSession, sessionEndedNotice } from '../../api/session';
import { mayOpen } from '../../components/Layout';

const HOME: Record<string, string> = { ADMIN: '/dashboard', OPERATOR: '/customers', COLLECTOR: '/collections' };

export default function SignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  // the redirect that carried the message may have been overtaken by another (a page loading with an expired token)
  const state = location.state as { notice?: string; from?: string } | null;
  const notice = state?.notice ?? sessionEndedNotice();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm({ initialValues: { username: '', password: '' } });

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setError(null);
    try {
      const session = await ok(api.POST('/api/auth/signin', { body: values }));
      saveSession(session);
      queryClient.clear();
      // back to the page that needed the sign-in (a link followed, a session that expired mid-task), if this role may open it
      const from = state?.from;
      const back = from && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/signin') && mayOpen(session.role, from.split('?')[0]) ? from : null;
      navigate(back ?? HOME[session.role] ?? '/customers', { replace: true });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  });

  return (
    <Container size={420} py={60} component="main">
      <Title order={1} ta="center" size="h2">
        {t('app.title')}
      </Title>
      <Paper withBorder shadow="sm" p="lg" mt="lg" radius="md">
        <form onSubmit={submit}>
          <Stack>
            {notice && !error && (
              <Alert color="orange" role="alert">
                {notice}
              </Alert>
            )}
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <TextInput label={t('signin.username')} autoComplete="username" {...form.getInputProps('username')} />
            <PasswordInput label={t('signin.password')} autoComplete="current-password" {...form.getInputProps('password')} />
            <Button type="submit" loading={busy}>
              {t('signin.submit')}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
