import { DateField } from '../../../common/validation/fields.js';

export class PaymentsExportQuery {
  @DateField({ optional: true, description: 'First business day (YYYY-MM-DD) whose payments are exported; open when left out.' })
  startdate?: string;

  @DateField({ optional: true, description: 'Last business day (YYYY-MM-DD), included; open when left out. No limit on the span: the file is streamed.' })
  enddate?: string;
}
