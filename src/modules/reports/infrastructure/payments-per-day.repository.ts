import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface DayTotals {
  date: string;
  payments: number;
  amount: string;
}

/** Payments received per business day (every type, deposits included), zeros for quiet days. */
@Injectable()
export class PaymentsPerDayRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async between(startdate: string, enddate: string, timeZone: string): Promise<DayTotals[]> {
    return (await this.dataSource.query(
      `SELECT to_char(d.day, 'YYYY-MM-DD') AS date, count(p.id)::int AS payments, COALESCE(sum(p.amount), 0)::text AS amount
       FROM generate_series($1::date, $2::date, interval '1 day') AS d(day)
       LEFT JOIN payments p ON p.created_at >= d.day::timestamp AT TIME ZONE $3
                           AND p.created_at < (d.day + interval '1 day')::timestamp AT TIME ZONE $3
       GROUP BY d.day ORDER BY d.day`,
      [startdate, enddate, timeZone],
    )) as DayTotals[];
  }
}
