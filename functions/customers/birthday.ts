// GET /v1/customers/{identifier}/birthday.
import { birthdayResource } from '../../shared/customers/customer-resource';
import { resolveCustomer } from '../../shared/customers/customer-service';
import { createHandler } from '../../shared/staff/staff-requests';

export const handler = createHandler(async ({ caller, path }) => {
  const customer = await resolveCustomer(caller.shopId, path('identifier'));
  return { statusCode: 200, body: { data: birthdayResource(customer.record) } };
});
