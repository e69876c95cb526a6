import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuthUser } from '../../../common/auth/role.js';
import { ContractsService } from '../../contracts/application/contracts.service.js';
import { CustomersService } from '../../customers/application/customers.service.js';
import { CommandFilter, DeviceCommandsService } from '../../device-commands/application/device-commands.service.js';
import { MobileMoneyService } from '../../payments/application/mobile-money.service.js';

@Injectable()
export class DevicesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly customers: CustomersService,
    private readonly contracts: ContractsService,
    private readonly commands: DeviceCommandsService,
    private readonly mobileMoney: MobileMoneyService,
  ) {}

  /**
   * After the platform confirms a lock: the final PAYG code and serial number are stored, the commands
   * not delivered yet carry them, and payments that arrived for that code before anyone had it are
   * credited, in the same transaction.
   */
  async lockUpdate(customerId: number, payg: string, serialnumber: string) {
    const applied = await this.dataSource.transaction(async (em) => {
      await this.customers.setDevice(em, customerId, payg, serialnumber);
      await this.commands.refreshDeviceDetails(em, customerId, payg, serialnumber);
      return this.mobileMoney.applyMatchable(em, payg);
    });
    return { message: 'Device details stored.', customerid: customerId, payg, serialnumber, appliedpayments: applied };
  }

  async unlockTemp(customerId: number, hours: number, actor: AuthUser) {
    const command = await this.contracts.tempUnlock(customerId, hours, actor);
    return { message: `Device unlocked until ${command.unlockuntil}.`, unlockuntil: command.unlockuntil!, command };
  }

  async syncStatus(customerId: number, actor: AuthUser) {
    const command = await this.contracts.syncStatus(customerId, actor);
    return { message: 'Deal state queued for the device.', command };
  }

  /** The command outbox, newest first; a customer named in the filter must exist (404). */
  async listCommands(filter: CommandFilter, page: number, limit: number) {
    if (filter.customerId !== undefined) await this.customers.assertExists(filter.customerId);
    return this.commands.list(filter, page, limit);
  }
}
