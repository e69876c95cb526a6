import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from './config/app-config.js';

export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('PAYG device financing service')
    .setDescription(
      [
        'Back office of a pay-as-you-go device-financing business: customers, deals, payments and mobile money, device locking, contracts, inventory, collections.',
        'Every `/finance/` route needs the JWT from `POST /api/auth/signin` in the header `x-access-token`. Tokens last 24 hours and belong to one environment.',
        'Every error body is `{"message": string}`. Amounts are JSON numbers with at most 2 decimals, in ' + config.currency + '. Dates are `YYYY-MM-DD`.',
      ].join('\n\n'),
    )
    .setVersion('2.0.0')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-access-token', description: 'JWT from POST /api/auth/signin' }, 'x-access-token')
    .addServer(config.servers.production, 'Production: operations affect real customer accounts and devices')
    .addServer(config.servers.uat, 'UAT sandbox');
  return SwaggerModule.createDocument(app, builder.build());
}

export function setUpSwagger(app: INestApplication, config: AppConfig): void {
  const document = buildOpenApiDocument(app, config);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', customSiteTitle: 'PAYG service API' });
}
