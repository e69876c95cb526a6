import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface DayTotals {
  date: string;
  payments: number;
  amount: string;
}

/**
 * Cash received per business day (deposits included), zeros for quiet days. An imported deal's
 * OPENING row is left out: it is what was paid before the import, not cash received that day.
 */
@Injectable()
export class PaymentsPerDayRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async between(startdate: string, enddate: string, timeZone: string): Promise<DayTotals[]> {
    return (await this.dataSource.query(
      `SELECT to_char(d.day, 'YYYY-MM-DD') AS date, count(p.id)::int AS payments, COALESCE(sum(p.amount), 0)::text AS amount
       FROM generate_series($1::date, $2::date, interval '1 day') AS d(day)
       LEFT JOIN payments p ON p.type <> 'OPENING'
                           AND p.created_at >= d.day::timestamp AT TIME ZONE $3
                           AND p.created_at < (d.day + interval '1 day')::timestamp AT TIME ZONE $3
       GROUP BY d.day ORDER BY d.day`,
      [startdate, enddate, timeZone],
    )) as DayTotals[];
  }
}
