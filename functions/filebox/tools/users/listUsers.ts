import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { checkQuery, filterInput, orderbyInput, skipInput, summaryOnlyInput, topInput } from '../../params';
import { pageFooter, type Paged } from '../../render';
import { contactToUser, userLine, type User } from '../../users/render';
import type { FeedQuery } from '../../client';

/** What `filter`/`orderby` may name on users (ShareFile's Contact of the account lists). */
const USER_PROPERTIES = ['Id', 'Email', 'FirstName', 'LastName', 'Company', 'Name', 'IsConfirmed', 'IsDisabled', 'CreatedDate'] as const;
const EXAMPLES = { filter: "endswith(Email,'@acme.com') eq true", orderby: 'LastName, FirstName' };

interface Users extends Paged {
  summary_only?: true;
  users: User[];
}

export const listUsers = fileboxTool({
  name: 'listUsers',
  description:
    'List the account\'s users: employees first, then clients (is_employee narrows to one kind), with is_confirmed and an OData filter/orderby on ' +
    `${USER_PROPERTIES.join(', ')} (e.g. ${EXAMPLES.filter}). Paged with top (default 100) and skip. Employees only. Read-only.`,
  input: z.strictObject({
    top: topInput('Users per page'),
    skip: skipInput,
    filter: filterInput(EXAMPLES.filter),
    orderby: orderbyInput(EXAMPLES.orderby),
    is_employee: z.boolean().optional().describe('true: employees only; false: clients only; omit for both.'),
    is_confirmed: z.boolean().optional().describe('true: users who activated their account; false: invited but not yet confirmed.'),
    summary_only: summaryOnlyInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<Users> {
    checkQuery(input, USER_PROPERTIES, EXAMPLES);
    const filters = [input.filter ? `(${input.filter})` : '', input.is_confirmed === undefined ? '' : `IsConfirmed eq ${input.is_confirmed}`].filter(Boolean);
    const base: FeedQuery = { ...(filters.length ? { $filter: filters.join(' and ') } : {}), ...(input.orderby ? { $orderby: input.orderby } : {}) };
    // ShareFile lists employees and clients apart: one page runs across both lists, employees first.
    const kinds = input.is_employee === undefined ? [true, false] : [input.is_employee];
    const users: User[] = [];
    let total = 0;
    for (const employee of kinds) {
      const skip = Math.max(0, input.skip - total);
      const want = input.top - users.length;
      const list = employee ? client.listEmployees : client.listClients;
      const feed = await list({ ...base, $skip: skip, $top: Math.max(want, 1) });
      if (want > 0) users.push(...feed.value.slice(0, want).map((c) => contactToUser(c, employee, input.summary_only)));
      total += feed['odata.count'] ?? feed.value.length;
    }
    return { total_count: total, returned_count: users.length, has_more: input.skip + users.length < total, ...(input.summary_only ? { summary_only: true as const } : {}), users };
  },
  text: (r: Users, input) => [...r.users.map(userLine), pageFooter(r, input.skip, 'user')].join('\n'),
  example: {
    input: { is_employee: false },
    result: {
      total_count: 2,
      returned_count: 2,
      has_more: false,
      users: [
        { Id: '00000004-7a1e-4c2b-8d3f-000000000004', Email: 'daniel@ortizbuilders.example', FullName: 'Daniel Ortiz', Company: 'Ortiz Builders', IsEmployee: false, IsConfirmed: true },
        { Id: '00000005-7a1e-4c2b-8d3f-000000000005', Email: 'sofia.rossi@rossi-design.example', FullName: 'Sofia Rossi', Company: 'Rossi Design', IsEmployee: false, IsConfirmed: false },
      ],
    },
  },
});
