import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { UsersService } from './users.service.js';

/** On an empty users table: create the first administrator from ADMIN_USERNAME / ADMIN_PASSWORD, or a random password. */
@Injectable()
export class FirstAdminBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('Users');

  constructor(
    private readonly users: UsersService,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const username = this.config.admin.username ?? 'admin';
    const { created, generatedPassword } = await this.users.ensureFirstAdmin(username, this.config.admin.password);
    if (!created) return;
    this.logger.log(`first administrator "${username}" created`);
    if (generatedPassword) {
      // Printed once on the console, deliberately outside the structured log.
      process.stdout.write(`\nFirst administrator: username "${username}", password "${generatedPassword}" (shown once; change it with POST /finance/users/password)\n\n`);
    }
  }
}
