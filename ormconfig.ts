import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/database/data-source-options.js';

/**
 * The data source the TypeORM CLI uses (`npx typeorm -d dist/ormconfig.js …` after a build).
 * It needs DATABASE_URL; to work on the embedded database, start the service once and use
 * the URL it prints, or run `npm run migration:run`, which starts the embedded database itself.
 */
export default new DataSource(dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres:payg-local@127.0.0.1:5441/payg_uat'));
