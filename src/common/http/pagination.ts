import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Type } from '@nestjs/common';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Transform } from 'class-transformer';
import { toInt } from '../validation/fields.js';

/** Ids in query strings and paths are documented like body ids (IdField). */
export { ID_SCHEMA, toInt } from '../validation/fields.js';

/** Far beyond any real listing, and small enough that (page − 1) × limit stays a safe integer offset. */
export const MAX_PAGE = 1_000_000;

export class PageQuery {
  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number, from 1.' })
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page: number = 1;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: 100, default: 20, description: 'Items per page.' })
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 20;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

const pageClasses = new Map<Type<unknown>, Type<Page<unknown>>>();

/**
 * The paged response of one item type, as a named class @nestjs/swagger can document
 * (`DealResponse` → `DealPageResponse`). One class per item type, so the schema is declared once.
 */
export function PageOf<T>(item: Type<T>): Type<Page<T>> {
  const known = pageClasses.get(item);
  if (known) return known as Type<Page<T>>;
  class PageResponse implements Page<T> {
    @ApiProperty({ type: [item] }) items: T[];
    @ApiProperty({ type: 'integer', example: 1 }) total: number;
    @ApiProperty({ type: 'integer', example: 1 }) page: number;
    @ApiProperty({ type: 'integer', example: 20 }) limit: number;
  }
  Object.defineProperty(PageResponse, 'name', { value: `${item.name.replace(/Response$/, '')}PageResponse` });
  pageClasses.set(item, PageResponse);
  return PageResponse;
}
