import { ArgumentMetadata, BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

/** "amount must be a positive number; customerid must be an integer": one message naming every bad field. */
export function describeValidationErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) =>
      parent && text.startsWith(`${error.property} `) ? `${parent}.${text}` : text,
    );
    return [...own, ...describeValidationErrors(error.children ?? [], path)];
  });
}

/**
 * Strict request validation: unknown fields are refused, types are not coerced ("5" is not an
 * integer), and a body that is not a JSON object is refused before any field is looked at.
 */
export class StrictValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      stopAtFirstError: false,
      exceptionFactory: (errors) => new BadRequestException(describeValidationErrors(errors).join('; ')),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && this.toValidate(metadata)) {
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new BadRequestException('Request body must be a JSON object.');
      }
    }
    return super.transform(value, metadata);
  }
}
