import { IdField, QueryIdField } from '../validation/fields.js';

/** The body of a route that acts on one customer; a route that needs more extends it. */
export class CustomerIdRequest {
  @IdField({ example: 42 })
  customerid: number;
}

/** The query of a route that reads one customer's records. */
export class CustomerIdParam {
  @QueryIdField({ example: 42 })
  customerid: number;
}
