// Role ids are fixed by spec §9.
export const Role = { Admin: 1, Manager: 2, Employee: 3 } as const;
export type RoleId = (typeof Role)[keyof typeof Role];

export const roleNames: Record<RoleId, string> = { 1: 'Admin', 2: 'Manager', 3: 'Employee' };

export function isRoleId(value: unknown): value is RoleId {
  return value === 1 || value === 2 || value === 3;
}
