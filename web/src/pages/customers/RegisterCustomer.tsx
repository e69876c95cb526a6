import { Button, Modal, NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, ok } from '../../api/client';
import { useDraft } from '../../components/draft';
import { NUMBER_INPUT, useAction, useFormat } from '../../components/ui';

const EMPTY = { fullname: '', telephone: '', dealid: '', deposit: '' as number | '', guarantorname: '', guarantorcontact: '', imei: '', payg: '' };

/** "Register customer": the deal chosen from the catalogue; the API's validation messages shown next to the fields. */
export function RegisterCustomer() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const navigate = useNavigate();
  const [opened, { open, close }] = useDisclosure();
  const deals = useQuery({ queryKey: ['deals', 'active'], queryFn: () => ok(api.GET('/finance/deals', { params: { query: { limit: 100 } } })), enabled: opened });
  const form = useForm({ initialValues: EMPTY });
  // a session that expires as the form is sent: back from signing in, the form is open again with all that was typed
  const send = useDraft('register', (values) => {
    form.setValues({ ...EMPTY, ...(values as Partial<typeof EMPTY>) });
    open();
  }, { opened, values: () => form.getValues() });
  const register = useAction({
    form,
    action: (v: typeof EMPTY) =>
      send(v, () => ok(api.POST('/finance/customers/register', { body: { ...v, dealid: Number(v.dealid), deposit: v.deposit === '' ? (undefined as unknown as number) : v.deposit } }))),
    success: (r) => r.message,
    invalidates: [['customers']],
    onDone: (r) => {
      close();
      form.reset();
      navigate(`/customers/${r.customerid}`);
    },
  });
  const options = (deals.data?.items ?? [])
    .filter((d) => d.active)
    .map((d) => ({ value: String(d.dealid), label: t('customers.dealOption', { name: d.dealname, deposit: fmt.money(d.deposit), monthly: fmt.money(d.monthly) }) }));
  const chooseDeal = (value: string | null) => {
    form.setFieldValue('dealid', value ?? '');
    const deal = deals.data?.items.find((d) => String(d.dealid) === value);
    if (deal && form.getValues().deposit === '') form.setFieldValue('deposit', deal.deposit);
  };
  return (
    <>
      <Button onClick={open}>{t('customers.register')}</Button>
      <Modal opened={opened} onClose={close} title={t('customers.register')} size="lg">
        <form onSubmit={form.onSubmit((v) => register.mutate(v))} noValidate>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('customers.fullname')} data-autofocus {...form.getInputProps('fullname')} />
            <TextInput label={t('customers.telephone')} type="tel" {...form.getInputProps('telephone')} />
            <Select label={t('customers.deal')} data={options} {...form.getInputProps('dealid')} onChange={chooseDeal} searchable nothingFoundMessage={t('common.none')} />
            <NumberInput label={t('customers.deposit')} min={0} decimalScale={2} {...NUMBER_INPUT} {...form.getInputProps('deposit')} />
            <TextInput label={t('customers.guarantorname')} {...form.getInputProps('guarantorname')} />
            <TextInput label={t('customers.guarantorcontact')} type="tel" {...form.getInputProps('guarantorcontact')} />
            <TextInput label={t('customers.imei')} inputMode="numeric" {...form.getInputProps('imei')} />
            <TextInput label={t('customers.payg')} {...form.getInputProps('payg')} />
          </SimpleGrid>
          <Button type="submit" mt="md" loading={register.isPending}>
            {t('customers.submitRegister')}
          </Button>
        </form>
      </Modal>
    </>
  );
}
