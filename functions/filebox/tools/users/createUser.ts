import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { emailInput } from '../../params';
import { toUser, userDetail, type User } from '../../users/render';

export const createUser = fileboxTool({
  name: 'createUser',
  description:
    'Create a user: a client (default; sees only what is shared with them) or an employee (is_employee true; gets a home folder). notify (default true) sends ' +
    'the welcome email so the user sets a password; or give password. add_shared / add_personal put the user in the shared / your personal address book. ' +
    'Needs the right to manage users. Returns the user.',
  input: z.strictObject({
    email: emailInput('Email address; also the user name.'),
    first_name: z.string().trim().max(100).optional().describe('First name.'),
    last_name: z.string().trim().max(100).optional().describe('Last name.'),
    company: z.string().trim().max(200).optional().describe('Company.'),
    is_employee: z.boolean().default(false).describe('true: an employee; false (default): a client.'),
    password: z.string().min(8).max(128).optional().describe('Initial password, at least 8 characters; omit to let the user set it from the welcome email.'),
    notify: z.boolean().default(true).describe('Send the welcome email (default true).'),
    add_shared: z.boolean().default(false).describe('Add to the shared address book (default false).'),
    add_personal: z.boolean().default(false).describe('Add to your personal address book (default false).'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, { client }): Promise<User> {
    const body = {
      Email: input.email,
      ...(input.first_name !== undefined ? { FirstName: input.first_name } : {}),
      ...(input.last_name !== undefined ? { LastName: input.last_name } : {}),
      ...(input.company !== undefined ? { Company: input.company } : {}),
      ...(input.password !== undefined ? { Password: input.password } : {}),
    };
    const flags = { notify: input.notify, addShared: input.add_shared, addPersonal: input.add_personal };
    return toUser(input.is_employee ? await client.createEmployee(body, flags) : await client.createClient(body, flags), false, true);
  },
  text: (u: User, input) => `created ${userDetail(u)}${input.notify ? '\nwelcome email sent' : ''}`,
  example: {
    input: { email: 'lena@northwind.example', first_name: 'Lena', last_name: 'Park', company: 'Northwind' },
    result: { Id: '000003ea-7a1e-4c2b-8d3f-0000000003ea', FullName: 'Lena Park', Email: 'lena@northwind.example', Company: 'Northwind', IsEmployee: false, IsConfirmed: false, Roles: ['Client'], TotalSharedFiles: 0, Contacted: 0 },
  },
});
